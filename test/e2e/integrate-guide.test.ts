import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fencedBlocks, type FencedBlock } from "../support/guide-blocks";
import { ensurePhp } from "../support/guide-php";
import { startSandboxBinary, type SandboxBinary } from "../support/sandbox-binary";

// Issue 39 acceptance: every program of docs/integrate.md tagged `verify-webhook` runs as written
// (php from Debian's php-cli, node, python3) against a real delivery the compiled binary's sandbox
// signed and sent to a loopback receiver: exit 0 for it, 1 for the body changed in one byte, a
// wrong signature and none. The `create-payment` programs run too, against the same sandbox.

const GUIDE = fencedBlocks(readFileSync("docs/integrate.md", "utf8"));
const INTERPRETERS: Record<string, { command: string; file: string }> = {
  php: { command: "php", file: "program.php" },
  js: { command: "node", file: "program.js" },
  python: { command: "python3", file: "program.py" },
};

type Received = { body: Buffer; headers: IncomingHttpHeaders };

let sandbox: SandboxBinary;
let receiver: Server;
let dir: string;
const received: Received[] = [];

beforeAll(async () => {
  await ensurePhp();
  dir = mkdtempSync(join(tmpdir(), "kasa-guide-programs-"));
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ body: Buffer.concat(chunks), headers: req.headers });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const port = (receiver.address() as { port: number }).port;
  sandbox = await startSandboxBinary("kasa-guide-");
  // The guide's own way to point the sandbox's webhooks at a receiver (docs/integrate.md, Testing).
  const set = spawnSync(
    "dist/kasa",
    ["partners", "set", "ptn_demo", "--webhook-url", `http://127.0.0.1:${port}/hooks`, "--db", sandbox.db],
    {
      encoding: "utf8",
    },
  );
  if (set.status !== 0) throw new Error(`kasa partners set: ${set.stderr}`);
});

afterAll(async () => {
  sandbox?.kill();
  await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(undefined)));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Writes the block to a file of its own and runs it with its interpreter. */
function runProgram(block: FencedBlock, args: string[], env: Record<string, string | undefined>, stdin?: Buffer) {
  const how = INTERPRETERS[block.lang];
  if (!how) throw new Error(`no interpreter for a ${block.lang} block (docs/integrate.md line ${block.line})`);
  const file = join(dir, `${block.tags[0]}-${how.file}`);
  writeFileSync(file, block.code);
  const merged: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete merged[k];
  return spawnSync(how.command, [file, ...args], { input: stdin, env: merged, encoding: "utf8", timeout: 20_000 });
}

async function paidDelivery(): Promise<Received> {
  const created = await (
    await fetch(`${sandbox.base}/v1/payments`, {
      method: "POST",
      headers: sandbox.headers,
      body: JSON.stringify({
        amount: 125_000,
        partnerTxCode: "guide-webhook-1",
        terminalId: "T-1001",
        returnUrl: "https://shop.example/return",
      }),
    })
  ).json();
  const simulated = await fetch(`${sandbox.base}/sandbox/payments/${created.paymentCode}/simulate`, {
    method: "POST",
    headers: sandbox.headers,
    body: JSON.stringify({ card: "4000001100000009" }),
  });
  expect((await simulated.json()).outcome).toBe("captured");
  const until = Date.now() + 20_000;
  for (;;) {
    const hit = received.find((r) => JSON.parse(r.body.toString("utf8")).paymentCode === created.paymentCode);
    if (hit) return hit;
    if (Date.now() > until) throw new Error(`no webhook for ${created.paymentCode}; sandbox said: ${sandbox.output().slice(-1000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("issue 39: the guide's verify-webhook programs against a real signed delivery", () => {
  const verifiers = GUIDE.filter((b) => b.tags.includes("verify-webhook"));

  it("the guide has one verify-webhook program per language: php, js, python", () => {
    expect(verifiers.map((b) => b.lang).sort()).toEqual(["js", "php", "python"]);
  });

  it("each exits 0 for the delivery, 1 for a body changed in one byte, a wrong signature and a missing one", async () => {
    const delivery = await paidDelivery();
    const signature = String(delivery.headers["x-service-signature"]);
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(delivery.headers["x-legacy-signature"]).toBe(signature);
    const secret = "whsec_demo";
    const changed = Buffer.from(delivery.body);
    changed[changed.length - 3] = changed[changed.length - 3]! ^ 0x01;
    const last = signature.at(-1) === "0" ? "1" : "0";
    const wrong = `${signature.slice(0, -1)}${last}`;

    for (const block of verifiers) {
      const verify = (body: Buffer, sig: string | undefined, key: string | undefined = secret) =>
        runProgram(block, [], { KASA_SIGNATURE: sig, KASA_WEBHOOK_SECRET: key }, body);
      const valid = verify(delivery.body, signature);
      expect({ lang: block.lang, exit: valid.status, stderr: valid.stderr }).toEqual({ lang: block.lang, exit: 0, stderr: "" });
      const cases = {
        changedByte: verify(changed, signature).status,
        wrongSignature: verify(delivery.body, wrong).status,
        missingSignature: verify(delivery.body, undefined).status,
        wrongSecret: verify(delivery.body, signature, "whsec_other").status,
      };
      expect({ lang: block.lang, ...cases }).toEqual({
        lang: block.lang,
        changedByte: 1,
        wrongSignature: 1,
        missingSignature: 1,
        wrongSecret: 1,
      });
    }
  });
});

describe("issue 39: the guide's create-payment programs against the sandbox", () => {
  const creators = GUIDE.filter((b) => b.tags.includes("create-payment"));

  it("the guide has one create-payment program per language: php, js, python", () => {
    expect(creators.map((b) => b.lang).sort()).toEqual(["js", "php", "python"]);
  });

  it("each creates (201), replays the same order (same paymentCode), and exits 1 naming the code of a refusal", () => {
    const env = { KASA_BASE_URL: sandbox.base, KASA_API_KEY: sandbox.headers.authorization!.replace("Bearer ", "") };
    for (const block of creators) {
      const order = `guide-${block.lang}-1`;
      const first = runProgram(block, [order, "125000"], env);
      expect({ lang: block.lang, exit: first.status, stderr: first.stderr }).toEqual({ lang: block.lang, exit: 0, stderr: "" });
      const created = JSON.parse(first.stdout);
      expect(created).toMatchObject({ status: "initiated", idempotentReplay: false, handoffUrl: `${sandbox.base}/handoff` });

      const again = runProgram(block, [order, "125000"], env);
      expect(again.status).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({
        paymentCode: created.paymentCode,
        paymentRef: created.paymentRef,
        idempotentReplay: true,
      });

      const refused = runProgram(block, [order, "99000"], env);
      expect({ lang: block.lang, exit: refused.status }).toEqual({ lang: block.lang, exit: 1 });
      expect(refused.stderr).toContain("409 duplicate_partner_tx_code");

      const unreachable = runProgram(block, [`${order}-x`, "125000"], { ...env, KASA_BASE_URL: "http://127.0.0.1:9" });
      expect({ lang: block.lang, exit: unreachable.status }).toEqual({ lang: block.lang, exit: 2 });
    }
  });
});
