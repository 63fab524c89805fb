import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { payflexSimulatorRoutes } from "../../src/bank/payflex/sim/routes";
import type { BankPageRoute } from "../../src/bank/module";
import { formClient } from "../../src/http/sandbox/form-client";
import { SECOND_MS } from "../../src/limits";
import { kasaProcess, type KasaProcess } from "../support/kasa-process";
import { useRestartRig, type RestartFiles } from "../support/restart-rig";
import { BANK, OTP, PAYFLEX_SEED } from "./payflex-flow";
import { cardFields } from "./payments-flow";

// Issue 35, crash safety: a kasa process dies while its Sale (or Cancel) is on the wire. The bank
// (one PayFlex simulator shared by both processes) did or did not receive it; the next process on
// the same database finds out by asking (Search), never by sending it again. The database file
// and its WAL hold no card number afterwards.

let files: RestartFiles;
const rig = useRestartRig<KasaProcess>("kasa-payflex-restart-", (f) => {
  files = f;
});

const APPROVE = "4000001100000009";
const NEVER = new Promise<Response>(() => {});

type Mode = "forward" | "forward-then-die" | "die-before-send";

function bank() {
  const routes = payflexSimulatorRoutes({
    nowMs: () => files.clock.nowMs(),
    nonce: () => "bm9uY2Utbm9uY2Utbm9uY2U",
    gateway: () => {
      throw new Error("not used");
    },
  });
  const sent: string[] = [];
  const modes = { Sale: "forward" as Mode, Cancel: "forward" as Mode };
  async function serve(url: string, init: RequestInit): Promise<Response> {
    const u = new URL(url);
    const route = routes.find((r: BankPageRoute) => r.path === u.pathname && r.method === (init.method ?? "GET"));
    if (!route) return new Response("not found", { status: 404 });
    const req = new Request(url, init);
    const form = route.readsForm ? Object.fromEntries(new URLSearchParams(await req.clone().text())) : null;
    const out = await route.handle({ req, url: u, form, traceId: "tr_test" });
    return out instanceof Response ? out : new Response(out.body, { status: out.status, headers: out.headers });
  }
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    const kind = /%3CTransactionType%3E(\w+)%3C/.exec(String(init.body))?.[1] ?? (url.includes("Search") ? "Search" : "enrollment");
    sent.push(kind);
    const mode = kind in modes ? modes[kind as keyof typeof modes] : "forward";
    if (mode === "die-before-send") return NEVER;
    const answer = await serve(url, init);
    return mode === "forward-then-die" ? NEVER : answer;
  };
  return { serve, fetch, modes, sent };
}

async function open(b: ReturnType<typeof bank>, seed = false): Promise<KasaProcess> {
  return rig.track(await kasaProcess({ path: files.path, clock: files.clock, seed: seed ? PAYFLEX_SEED : undefined, bankFetch: b.fetch }));
}

/** The buyer up to the callback post, which is left running (the process dies under it). */
async function payUntilCallback(k: KasaProcess, b: ReturnType<typeof bank>, paymentRef: string, code: string): Promise<void> {
  const route = (url: string, init: RequestInit) =>
    url.startsWith(BANK) ? b.serve(url, init) : Promise.resolve(k.runtime.app.request(url, init));
  const client = formClient(route, ["http://kasa.test", BANK]);
  const acs = await client.post("http://kasa.test/handoff", cardFields(paymentRef, APPROVE));
  const form = acs.page?.forms.find((f) => f.fields.some((x) => x.name === "otp"));
  if (!form) throw new Error(`no ACS form: ${acs.page?.body.slice(0, 300)}`);
  void client.submit(form, { otp: OTP }, "confirm");
  const claimed = async () => await k.store.q.bank.authClaimed((await k.store.q.attempts.byPayment(code))[0]?.id ?? "");
  for (let i = 0; i < 100 && !(await claimed()); i++) await new Promise((r) => setTimeout(r, 10));
}

async function newPayment(k: KasaProcess, tx: string) {
  const created = await k.post("/v1/payments", {
    amount: 10_000,
    partnerTxCode: tx,
    terminalId: "T-PF",
    returnUrl: "https://shop.example/r",
  });
  return { code: created.json.paymentCode as string, ref: created.json.paymentRef as string };
}

const bytesOf = (path: string): string => (existsSync(path) ? readFileSync(path).toString("latin1") : "");

describe("issue 35: a process that dies while the Sale is on the wire", () => {
  it.each([
    ["the bank approved the Sale", "forward-then-die", "captured"],
    ["the Sale never reached the bank", "die-before-send", "failed"],
  ] as const)("%s: the next process asks Search and records %s; the Sale is sent once", async (_name, mode, status) => {
    const b = bank();
    b.modes.Sale = mode;
    const first = await open(b, true);
    const p = await newPayment(first, `r-${mode}`);
    await payUntilCallback(first, b, p.ref, p.code);
    expect((await first.store.q.attempts.byPayment(p.code))[0]?.status).toBe("capturing");
    await rig.stop(first);

    const second = await open(b);
    await second.advance(151 * SECOND_MS);
    expect((await second.store.q.payments.get(p.code))?.status).toBe(status);
    expect(b.sent.filter((k) => k === "Sale")).toHaveLength(1);
    expect(b.sent.at(-1)).toBe("Search");
    await rig.stop(second);
    // Neither process wrote the card: the database file and its WAL hold no card number.
    const scanned = bytesOf(files.path) + bytesOf(`${files.path}-wal`);
    expect(scanned).toContain("400000******0009");
    expect(scanned.includes(APPROVE)).toBe(false);
  });
});

describe("issue 35: a process that dies while a Cancel is on the wire", () => {
  it("the bank cancelled it: the next process finds it cancelled (Search), approves the refund, never sends Cancel again", async () => {
    const b = bank();
    const first = await open(b, true);
    const p = await newPayment(first, "r-cancel");
    await payUntilCallback(first, b, p.ref, p.code);
    for (let i = 0; i < 100 && (await first.store.q.payments.get(p.code))?.status !== "captured"; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect((await first.store.q.payments.get(p.code))?.status).toBe("captured");
    b.modes.Cancel = "forward-then-die";
    void first.post(`/v1/payments/${p.code}/refunds/void`, { partnerRefundCode: "rv-1" });
    for (let i = 0; i < 100 && !b.sent.includes("Cancel"); i++) await new Promise((r) => setTimeout(r, 10));
    const refundId = (await first.store.q.refunds.allPending())[0]!.id;
    expect(await first.store.q.refunds.get(refundId)).toMatchObject({ status: "pending", bankReference: "?void" });
    await rig.stop(first);

    const second = await open(b);
    await second.runDue();
    expect((await second.store.q.refunds.get(refundId))?.status).toBe("approved");
    expect((await second.store.q.payments.get(p.code))?.status).toBe("voided");
    expect(b.sent).toEqual(["enrollment", "Sale", "Cancel", "Search"]);
  });
});
