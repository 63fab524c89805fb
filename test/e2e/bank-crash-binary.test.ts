import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoRow } from "../../src/bank/module";
import { BANKS } from "../../src/bank/registry";
import { DEMO_API_KEY } from "../../src/domain/partners/demo-seed";
import { formClient, type Outcome } from "../../src/http/sandbox/form-client";
import { freePort } from "../support/free-port";

// Issues 31, 33-35 (and EST): a kasa process killed while its authorization is on the wire, through
// the compiled binary. The bank must outlive the process, so it is a second binary: sandbox A
// serves every bank's simulator; kasa B (a sandbox of its own, for its movable clock) has one
// connection per bank pointing at A's simulator, made from each bank's own demo rows. B sends the
// authorization of a `.91` payment (A records and approves it, then answers after 65 s), B is
// killed, a new B starts on the same database, and its capture check asks A's status query and
// records the truth: captured, the authorization sent once.

type Bank = { id: string; provision: string; status: string };
const CASES: Bank[] = [
  { id: "est", provision: "Auth", status: "ORDERSTATUS" },
  { id: "garanti", provision: "sales", status: "orderinq" },
  { id: "posnet", provision: "oosTranData", status: "agreement" },
  { id: "akbank", provision: "1000", status: "1010" },
  { id: "payflex", provision: "Sale", status: "Search" },
];
const CARD = { pan: "4000001100000009", expireMonth: "12", expireYear: "34", cv2: "731" };

type Proc = { child: ChildProcess; out: { text: string } };
const procs: Proc[] = [];
afterAll(() => {
  for (const p of procs) if (p.child.exitCode === null) p.child.kill("SIGKILL");
});

async function waitFor<T>(check: () => Promise<T | undefined> | T | undefined, what: string, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function sandbox(port: number, db: string): Promise<Proc> {
  const child = spawn("dist/kasa", ["sandbox", "--port", String(port), "--db", db, "--log-format", "pretty"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const p = { child, out: { text: "" } };
  child.stdout!.on("data", (d) => (p.out.text += String(d)));
  child.stderr!.on("data", (d) => (p.out.text += String(d)));
  procs.push(p);
  await waitFor(() => (/API key:\s+\S+/.test(p.out.text) ? true : undefined), `the sandbox banner on ${port}`);
  return p;
}

/** Each bank's demo connection and terminal, renamed, pointing at the simulators of the sandbox at `bankUrl`. */
function crashSeed(bankUrl: string): string {
  const ctx = { baseUrl: bankUrl, psp: "psp-1", partner: "ptn_demo" };
  const connections: DemoRow[] = [];
  const terminals: DemoRow[] = [];
  for (const { id } of CASES) {
    const demo = BANKS.find((b) => b.id === id)?.demo;
    if (!demo) throw new Error(`bank ${id} has no demo rows`);
    const connection = { ...demo.connections(ctx)[0]!, id: `crash-${id}` };
    connections.push(connection);
    terminals.push({ ...demo.terminals(ctx)[0]!, id: `T-CRASH-${id.toUpperCase()}`, connection: connection.id });
  }
  return JSON.stringify({ connections, terminals });
}

let bankUrl = "";
let kasaUrl = "";
let kasaPort = 0;
let kasaDb = "";
let kasa: Proc;

const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${kasaUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${DEMO_API_KEY}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
};
const callsOf = async (id: string): Promise<string[]> =>
  ((await (await fetch(`${bankUrl}/sim-${id}/calls`)).json()).calls as Array<Record<string, string>>).map(
    (c) => c.type ?? c.operation ?? c.txnCode ?? c.kind ?? "?",
  );

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "kasa-bank-crash-"));
  const bankPort = await freePort();
  bankUrl = `http://127.0.0.1:${bankPort}`;
  await sandbox(bankPort, join(dir, "bank.db"));
  kasaPort = await freePort();
  kasaUrl = `http://127.0.0.1:${kasaPort}`;
  kasaDb = join(dir, "kasa.db");
  kasa = await sandbox(kasaPort, kasaDb);
  const seed = join(dir, "crash-seed.json");
  writeFileSync(seed, crashSeed(bankUrl));
  const seeded = spawnSync("dist/kasa", ["seed", seed, "--db", kasaDb], { encoding: "utf8" });
  expect(seeded.status, seeded.stderr).toBe(0);
}, 60_000);

/** The buyer: the card to B's relay, the bank's pages on A (a one-time code where one is asked), the callback to B. */
async function payUntilCallback(paymentRef: string): Promise<void> {
  const client = formClient((url, init) => fetch(url, { ...init, redirect: "manual" }), [kasaUrl, bankUrl], 20, false, BANKS);
  const out: Outcome = await client.post(`${kasaUrl}/handoff`, { paymentRef, ...CARD });
  for (const form of out.page?.status === 200 ? out.page.forms : []) {
    const shape = { action: form.action, fieldNames: form.fields.map((f) => f.name) };
    const bank = BANKS.find((b) => b.buyer?.isGateForm(shape));
    if (!bank?.buyer) continue;
    const { values, button } = bank.buyer.answer("123456");
    await client.submit(form, values, button);
    return;
  }
}

describe("issues 31, 33-35: a process killed while the authorization is on the wire, through the binary", () => {
  it.each(CASES)(
    "$id: the next process asks $status and records the capture; $provision was sent once",
    async ({ id, provision, status }) => {
      const before = (await callsOf(id)).length;
      const created = await api("POST", "/v1/payments", {
        amount: 10_091,
        partnerTxCode: `crash-${id}`,
        terminalId: `T-CRASH-${id.toUpperCase()}`,
        returnUrl: "https://shop.example/done",
      });
      expect(created.status, JSON.stringify(created.json)).toBe(201);
      const code = created.json.paymentCode as string;
      // The callback's request hangs on A's slow answer; it dies with B.
      void payUntilCallback(created.json.paymentRef as string).catch(() => {});
      await waitFor(async () => ((await callsOf(id)).slice(before).includes(provision) ? true : undefined), `${provision} at the bank`);
      kasa.child.kill("SIGKILL");
      await new Promise((r) => kasa.child.once("exit", r));

      kasa = await sandbox(kasaPort, kasaDb);
      expect((await api("GET", `/v1/payments/${code}`)).json.status).toBe("initiated");
      // Past the capture check opened with the authorization (150 s), on B's sandbox clock.
      expect((await api("POST", "/sandbox/clock", { advanceSeconds: 151 })).status).toBe(200);
      const captured = await waitFor(async () => {
        const s = (await api("GET", `/v1/payments/${code}`)).json.status;
        return s === "initiated" ? undefined : s;
      }, "the capture check");
      expect(captured).toBe("captured");
      const calls = (await callsOf(id)).slice(before);
      expect(calls.filter((c) => c === provision)).toHaveLength(1);
      expect(calls).toContain(status);
    },
    60_000,
  );
});
