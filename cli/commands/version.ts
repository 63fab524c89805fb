import { defineCommand } from "citty";
import pkg from "../../package.json" with { type: "json" };
import { SCHEMA_VERSION } from "../../src/store/sqlite/migrate";
import { output } from "../context";

export const versionCommand = defineCommand({
  meta: { name: "version", description: "Print the kasa version.\n\nExample: kasa version --json" },
  args: { json: { type: "boolean", description: "print machine-readable JSON" } },
  run: ({ args }) =>
    output(args, { version: pkg.version, schemaVersion: SCHEMA_VERSION }, () => `kasa ${pkg.version} (schema ${SCHEMA_VERSION})`),
});
