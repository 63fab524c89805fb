import { readFileSync } from "node:fs";
import { defineCommand } from "citty";
import { applySeed, parseSeed, SeedError } from "../../src/domain/partners/seed";
import { CliError } from "../cli-error";
import { commonArgs, output, withStore } from "../context";

function readSeedFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new CliError(`cannot read seed file ${file}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new CliError(`${file}: not valid JSON`);
  }
}

export const seedCommand = defineCommand({
  meta: {
    name: "seed",
    description: "Load a seed file: validated whole, atomic, idempotent.\n\nExample: kasa seed seed.json --db kasa.db",
  },
  args: { file: { type: "positional", description: "seed file (JSON)", required: true }, ...commonArgs },
  run: async ({ args }) => {
    const json = readSeedFile(args.file);
    await withStore(
      args,
      async ({ store, clock, ids }) => {
        try {
          const seed = parseSeed(json);
          await applySeed(store, seed, clock.nowMs(), ids.keyId);
          const counts = Object.fromEntries(Object.entries(seed).map(([k, v]) => [k, Array.isArray(v) ? v.length : 0]));
          output(
            args,
            { ok: true, counts },
            () =>
              `seeded: ${
                Object.entries(counts)
                  .map(([k, n]) => `${n} ${k}`)
                  .join(", ") || "nothing"
              }`,
          );
        } catch (error) {
          if (error instanceof SeedError) throw new CliError(`${args.file}: ${error.message}`);
          throw error;
        }
      },
      { create: true },
    );
  },
});
