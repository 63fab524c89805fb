import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../support/free-port";
import { assignedValue, curlSteps, fencedBlocks, runCurlSteps } from "../support/guide-blocks";
import { startSandboxBinary, type SandboxBinary } from "../support/sandbox-binary";

// Issue 22 / product 21, the README's five-minute tour through the compiled binary: create a
// payment, simulate the buyer with a test card, watch the webhook in `kasa webhooks tail`, read the
// payment; the tail stops cleanly on Ctrl-C (SIGINT, exit 0).

const children: ChildProcess[] = [];
const sandboxes: SandboxBinary[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  for (const s of sandboxes) s.kill();
});

function start(args: string[]) {
  const child = spawn("dist/kasa", args, { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  const out = { text: "" };
  child.stdout!.on("data", (d) => (out.text += String(d)));
  child.stderr!.on("data", (d) => (out.text += String(d)));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, out, exited };
}

const waitFor = async (check: () => boolean, what: string, ms = 20_000) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe("issue 22 the sandbox tour: create, simulate, tail, read", () => {
  it("the webhook of a simulated payment shows in kasa webhooks tail; Ctrl-C stops the tail with exit 0", async () => {
    const port = await freePort();
    const db = join(mkdtempSync(join(tmpdir(), "kasa-tour-")), "sandbox.db");
    const server = start(["sandbox", "--port", String(port), "--db", db, "--log-format", "pretty"]);
    await waitFor(() => /API key:\s+\S+/.test(server.out.text), "the sandbox banner");
    const key = /API key:\s+(\S+)/.exec(server.out.text)![1]!;
    const base = `http://127.0.0.1:${port}`;
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };

    const tail = start(["webhooks", "tail", "--json", "--db", db]);
    await new Promise((r) => setTimeout(r, 500));
    const created = await (
      await fetch(`${base}/v1/payments`, {
        method: "POST",
        headers,
        body: JSON.stringify({ amount: 125_000, partnerTxCode: "tour-1", terminalId: "T-1001", returnUrl: "https://shop.example/return" }),
      })
    ).json();
    const simulated = await fetch(`${base}/sandbox/payments/${created.paymentCode}/simulate`, {
      method: "POST",
      headers,
      body: JSON.stringify({ card: "4000001100000009" }),
    });
    expect(simulated.status).toBe(200);
    expect(await simulated.json()).toMatchObject({ paymentCode: created.paymentCode, status: "captured", outcome: "captured" });

    // The demo webhook URL (127.0.0.1:9000) has no receiver here: the first attempt fails and is retried.
    await waitFor(() => tail.out.text.split("\n").filter(Boolean).length >= 2, "the delivery and its first attempt");
    const lines = tail.out.text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ kind: "delivery", partnerId: "ptn_demo", type: "payment.captured" });
    expect(lines[1]).toMatchObject({ kind: "attempt", deliveryId: lines[0].id, n: 1, outcome: "retry" });

    const read = await (await fetch(`${base}/v1/payments/${created.paymentCode}`, { headers })).json();
    expect(read).toMatchObject({ status: "captured", maskedPan: "400000******0009" });

    tail.child.kill("SIGINT");
    expect(await tail.exited).toBe(0);
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  }, 60_000);
});

// Issue 39: the curl lines of the README's tour and of docs/integrate.md, run as written (bash and
// the real curl, KEY and BASE of a fresh sandbox, `PAY=pay_...` taken from the answer before it),
// each document on its own sandbox; every answer must have the status and fields the comment under
// it names (`# -> 201 {"status":"initiated"}`), or a 2xx where it names none.
describe("issues 22 and 39: the docs' curl lines run against the compiled sandbox", () => {
  it.each(["README.md", "docs/integrate.md"])(
    "every curl line of %s answers what the doc says",
    async (file) => {
      const markdown = readFileSync(file, "utf8");
      const blocks = fencedBlocks(markdown).filter((b) => b.lang === "sh" && /^curl /m.test(b.code));
      const steps = blocks.flatMap((b) => curlSteps(b.code));
      expect(steps.filter((s) => s.kind === "curl").length).toBeGreaterThan(file === "README.md" ? 5 : 15);
      const docBase = blocks.map((b) => assignedValue(b.code, "BASE")).find((v) => v !== undefined);
      const sandbox = await startSandboxBinary("kasa-doc-curl-");
      sandboxes.push(sandbox);
      const key = sandbox.headers.authorization!.replace("Bearer ", "");
      expect(blocks.map((b) => assignedValue(b.code, "KEY")).find((v) => v !== undefined)).toBe(key);
      const ran = runCurlSteps(steps, { KEY: key, BASE: sandbox.base }, docBase);
      expect(ran.length).toBe(steps.filter((s) => s.kind === "curl").length);
      sandbox.kill();
    },
    60_000,
  );
});
