import { defineCommand } from "citty";
import { documentedRoutes } from "../../src/http/routes";
import { openApiDocument } from "../../src/openapi/document";

// docs/api.md: `kasa openapi` prints the document GET /openapi.json serves, for client generators.
export const openapiCommand = defineCommand({
  meta: {
    name: "openapi",
    description:
      "Print the OpenAPI 3.1 description of the API (what GET /openapi.json serves).\n\nExample: kasa openapi --base-url https://pay.example > openapi.json",
  },
  args: { "base-url": { type: "string", description: "the server URL to put in the document", default: "http://127.0.0.1:8080" } },
  run: ({ args }) => {
    process.stdout.write(`${JSON.stringify(openApiDocument(documentedRoutes(), String(args["base-url"]).replace(/\/+$/, "")), null, 2)}\n`);
  },
});
