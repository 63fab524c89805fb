import { afterEach, describe, expect, it } from "vitest";
import { resolveAnswerMac } from "../../src/bank/posnet/crypt";
import { POSNET_SIM_ACCOUNT } from "../../src/bank/posnet/sim/accounts";
import { eventsOf, paymentRow } from "./payments-flow";
import { APPROVE, AUTH_FAILS, callbackOf, posnetHarness, posnetPayment, postRaw, type PosnetHarness } from "./posnet-flow";

// Issue 33: a callback that is not the bank's own, or a resolve answer kasa cannot trust, changes
// nothing: 400, the attempt stays at the bank's page, no oosTranData, no webhook, no card data.

let h: PosnetHarness;
afterEach(async () => h?.close());

const attemptOf = async (code: string) => (await h.store.q.attempts.byPayment(code))[0]!;

const flipFirst = (body: string, field: string) =>
  body.replace(new RegExp(`(${field}=)([0-9A-F])`), (_m, k: string, c: string) => `${k}${c === "A" ? "B" : "A"}`);

async function expectUnchanged(code: string) {
  expect((await paymentRow(h, code)).status).toBe("initiated");
  expect((await attemptOf(code)).status).toBe("acs");
  expect(await eventsOf(h, code)).toEqual([]);
  expect(h.trans()).toBe(0);
  expect(h.log.lines.some((l) => l.includes("bank callback refused"))).toBe(true);
}

/** Rewrites the resolve answer's `name` and signs it again with the bank's key (what only the bank could do). */
const resignedResolve = (name: "amount" | "currency" | "installment" | "xid", value: string) => async (text: string) => {
  const changed = text.replace(new RegExp(`<${name}>[^<]*</${name}>`), `<${name}>${value}</${name}>`);
  const get = (n: string) => new RegExp(`<${n}>([^<]*)</${n}>`).exec(changed)?.[1] ?? "";
  const mac = resolveAnswerMac(POSNET_SIM_ACCOUNT, get("mdStatus"), get("xid"), get("amount"), get("currency"));
  return changed.replace(/<mac>[^<]*<\/mac>/, `<mac>${mac}</mac>`);
};

const resolveRewriter =
  (rewrite: (text: string) => Promise<string> | string) => async (_url: string, init: RequestInit, send: () => Promise<Response>) => {
    const answer = await send();
    if (!(init.body as string).includes("oosResolveMerchantData")) return answer;
    const text = new TextDecoder("latin1").decode(await answer.arrayBuffer());
    return new Response(await rewrite(text), { status: 200, headers: { "content-type": "text/xml" } });
  };

describe("issue 33: a forged, altered, truncated or duplicated callback changes nothing", () => {
  it.each([
    ["a forged MerchantPacket", (b: string) => flipFirst(b, "MerchantPacket")],
    ["an altered BankPacket", (b: string) => flipFirst(b, "BankPacket")],
    ["an altered Sign", (b: string) => flipFirst(b, "Sign")],
    ["a truncated body", (b: string) => b.slice(0, Math.floor(b.length / 2))],
    ["a field posted twice", (b: string) => `${b}&Sign=${/Sign=([^&]*)/.exec(b)?.[1]}`],
    ["no Sign at all", (b: string) => b.replace(/&?Sign=[^&]*/, "")],
    ["a packet that is not hex", (b: string) => b.replace(/MerchantPacket=[^&]*/, "MerchantPacket=%3Cscript%3E")],
  ])("%s: 400 page, payment initiated, no oosTranData", async (_name, tamper) => {
    h = await posnetHarness();
    const p = await posnetPayment(h);
    const cb = await callbackOf(h, p.paymentRef, APPROVE);
    const res = await postRaw(h, cb.url, tamper(cb.body));
    expect(res.status).toBe(400);
    await expectUnchanged(p.paymentCode);
  });

  it.each([
    ["the amount", resignedResolve("amount", "1")],
    ["the currency", resignedResolve("currency", "US")],
    ["the installment", resignedResolve("installment", "06")],
    ["the XID", resignedResolve("xid", "00000000000000000001")],
    ["the mac (not the bank's)", (t: string) => t.replace(/<mac>[^<]*<\/mac>/, "<mac>bm90IHRoZSBiYW5rJ3MgbWFjIGF0IGFsbA==</mac>")],
    ["the amount (not signed again)", (t: string) => t.replace("<amount>", "<amount>9")],
    [
      "the mdStatus 0 turned 1 (not signed again)",
      (t: string) => t.replace("<mdStatus>0</mdStatus>", "<mdStatus>1</mdStatus>"),
      AUTH_FAILS,
    ],
  ])("a resolve answer that differs in %s is refused: 400, no oosTranData", async (_name, rewrite, pan = APPROVE) => {
    h = await posnetHarness({ transport: resolveRewriter(rewrite) });
    const p = await posnetPayment(h);
    const cb = await callbackOf(h, p.paymentRef, pan);
    expect((await postRaw(h, cb.url, cb.body)).status).toBe(400);
    await expectUnchanged(p.paymentCode);
  });

  it("a genuine callback posted to another attempt's URL: the bank refuses that attempt's mac (E216); both stay initiated", async () => {
    h = await posnetHarness();
    const a = await posnetPayment(h);
    const b = await posnetPayment(h);
    const cbA = await callbackOf(h, a.paymentRef, APPROVE);
    const cbB = await callbackOf(h, b.paymentRef, APPROVE);
    expect((await postRaw(h, cbB.url, cbA.body)).status).toBe(400);
    expect((await paymentRow(h, a.paymentCode)).status).toBe("initiated");
    expect((await paymentRow(h, b.paymentCode)).status).toBe("initiated");
    expect(h.trans()).toBe(0);
  });

  it("the resolve gets no answer: 400, nothing changes; the buyer posting again is resolved and captured", async () => {
    let down = true;
    h = await posnetHarness({
      transport: async (_url, init, send) =>
        down && (init.body as string).includes("oosResolveMerchantData") ? new Response("bad gateway", { status: 502 }) : send(),
    });
    const p = await posnetPayment(h);
    const cb = await callbackOf(h, p.paymentRef, APPROVE);
    expect((await postRaw(h, cb.url, cb.body)).status).toBe(400);
    await expectUnchanged(p.paymentCode);
    down = false;
    expect((await postRaw(h, cb.url, cb.body)).status).toBe(303);
    expect((await paymentRow(h, p.paymentCode)).status).toBe("captured");
    expect(h.trans()).toBe(1);
  });
});

describe("issue 33: replayed and concurrent callbacks make one authorization", () => {
  it("a replayed callback after the capture: 400, still one oosTranData, one payment.captured", async () => {
    h = await posnetHarness();
    const p = await posnetPayment(h);
    const cb = await callbackOf(h, p.paymentRef, APPROVE);
    expect((await postRaw(h, cb.url, cb.body)).status).toBe(303);
    expect((await postRaw(h, cb.url, cb.body)).status).toBe(400);
    expect(h.trans()).toBe(1);
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.captured"]);
  });

  it("concurrent callbacks for one attempt send exactly one oosTranData", async () => {
    h = await posnetHarness();
    const p = await posnetPayment(h);
    const cb = await callbackOf(h, p.paymentRef, APPROVE);
    const answers = await Promise.all(Array.from({ length: 8 }, () => postRaw(h, cb.url, cb.body)));
    expect(answers.map((r) => r.status).sort()).toEqual([303, 400, 400, 400, 400, 400, 400, 400]);
    expect(h.trans()).toBe(1);
    expect((await paymentRow(h, p.paymentCode)).status).toBe("captured");
    expect(await eventsOf(h, p.paymentCode)).toEqual(["payment.captured"]);
  });

  it("no card data in the database or the log after a payment", async () => {
    h = await posnetHarness();
    const p = await posnetPayment(h);
    const cb = await callbackOf(h, p.paymentRef, APPROVE);
    await postRaw(h, cb.url, cb.body);
    const dump = JSON.stringify(await h.store.q.attempts.byPayment(p.paymentCode)) + JSON.stringify(await paymentRow(h, p.paymentCode));
    expect(dump).not.toContain(APPROVE);
    expect(h.log.lines.join("\n")).not.toContain(APPROVE);
    expect(h.log.lines.join("\n")).not.toContain(POSNET_SIM_ACCOUNT.encKey);
  });
});
