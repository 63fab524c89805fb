import { writeFileSync } from "node:fs";
import { recordExamples } from "./openapi-examples";

// `npm run openapi:examples`: refreshes src/openapi/examples.json from real answers (issue 21).
const examples = await recordExamples();
writeFileSync("src/openapi/examples.json", `${JSON.stringify(examples, null, 2)}\n`);
process.stdout.write(`wrote ${Object.keys(examples).length} examples to src/openapi/examples.json\n`);
