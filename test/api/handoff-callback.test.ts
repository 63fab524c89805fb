import { afterEach, describe, expect, it } from "vitest";
import { MINUTE_MS } from "../../src/limits";
import type { HtmlForm, Outcome } from "../../src/http/sandbox/form-client";
import { harness, T0, type Harness } from "../support/harness";
import { answerAcs, clientOf, createPayment, eventsOf, handOff, linkPaymentOf, pay, paymentRow, seedWith } from "./payments-flow";

let h: Harness;
afterEach(async () => h?.close());

const APPROVED = "4000001100000009";

/** The ACS form and what pressing "confirm" with the right code would post, without posting it. */
function acsForm(acs: Outcome): { form: HtmlForm; fields: Record<string, string> } {
  const form = acs.page!.forms[0]!;
  return { form, fields: { ...Object.fromEntries(form.fields.map((f) => [f.name, f.value])), otp: "123456", action: "confirm" } };
}

const postCallback = (h: Harness, url: string, fields: Record<string, string>) => clientOf(h).post(url, fields);

describe("product 6.4 callback: forged or replayed callbacks are rejected and change nothing", () => {
  it("a tampered token: 400 page, the attempt stays open, the genuine callback still captures", async () => {
    h = await harness();
    const c = await createPayment(h);
    const acs = await handOff(h, c.json.paymentRef, APPROVED);
    const { form, fields } = acsForm(acs);
    const token = fields.token!;
    const tampered = `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`;
    const forged = await postCallback(h, form.action, { ...fields, token: tampered });
    expect(forged.page?.status).toBe(400);
    expect(forged.page?.body).toContain("Ödemenin durumu değişmedi");
    expect((await paymentRow(h, c.json.paymentCode)).status).toBe("initiated");
    expect((await h.store.q.attempts.byPayment(c.json.paymentCode)).map((a) => a.status)).toEqual(["acs"]);
    const real = await postCallback(h, form.action, fields);
    expect(real.leftTo).toContain("status=captured");
  });

  it("a genuine token posted to another attempt's callback URL is refused", async () => {
    h = await harness();
    const a = await createPayment(h);
    const b = await createPayment(h);
    const acsA = acsForm(await handOff(h, a.json.paymentRef, APPROVED));
    const acsB = acsForm(await handOff(h, b.json.paymentRef, APPROVED));
    const crossed = await postCallback(h, acsB.form.action, acsA.fields);
    expect(crossed.page?.status).toBe(400);
    expect((await paymentRow(h, b.json.paymentCode)).status).toBe("initiated");
    expect((await paymentRow(h, a.json.paymentCode)).status).toBe("initiated");
  });

  it("an unknown attempt id is refused", async () => {
    h = await harness();
    const r = await postCallback(h, "http://kasa.test/handoff/callback/att-nope", { token: "x", otp: "123456", action: "confirm" });
    expect(r.page?.status).toBe(400);
  });

  it("replaying a callback after capture: 400, one capture, one payment.captured", async () => {
    h = await harness();
    const c = await createPayment(h);
    const { form, fields } = acsForm(await handOff(h, c.json.paymentRef, APPROVED));
    expect((await postCallback(h, form.action, fields)).leftTo).toContain("status=captured");
    const replay = await postCallback(h, form.action, fields);
    expect(replay.page?.status).toBe(400);
    expect((await paymentRow(h, c.json.paymentCode)).status).toBe("captured");
    expect(await eventsOf(h, c.json.paymentCode)).toEqual(["payment.captured"]);
  });

  it("replaying a failed authentication with the right code afterwards cannot capture", async () => {
    h = await harness();
    const c = await createPayment(h);
    const { form, fields } = acsForm(await handOff(h, c.json.paymentRef, APPROVED));
    expect((await postCallback(h, form.action, { ...fields, otp: "999999" })).leftTo).toContain("status=failed");
    expect((await postCallback(h, form.action, fields)).page?.status).toBe(400);
    expect((await paymentRow(h, c.json.paymentCode)).status).toBe("failed");
  });

  it("two simultaneous callbacks: one 303, one rejection, captured once", async () => {
    h = await harness();
    const c = await createPayment(h);
    const { form, fields } = acsForm(await handOff(h, c.json.paymentRef, APPROVED));
    const both = await Promise.all([postCallback(h, form.action, fields), postCallback(h, form.action, fields)]);
    expect(both.map((o) => (o.leftTo ? 303 : o.page?.status)).sort()).toEqual([303, 400]);
    expect(await eventsOf(h, c.json.paymentCode)).toEqual(["payment.captured"]);
  });
});

describe("product 6.4 the 303 to returnUrl (informational ?paymentCode=…&status=…)", () => {
  it.each([
    ["https://shop.example/done", "https://shop.example/done?paymentCode=CODE&status=captured"],
    ["https://shop.example/done?order=7&x=a%20b", "https://shop.example/done?order=7&x=a%20b&paymentCode=CODE&status=captured"],
    ["https://shop.example/done?", "https://shop.example/done?paymentCode=CODE&status=captured"],
    ["https://shop.example/done#receipt", "https://shop.example/done?paymentCode=CODE&status=captured#receipt"],
    ["https://shop.example", "https://shop.example/?paymentCode=CODE&status=captured"],
  ])("%s", async (returnUrl, expected) => {
    h = await harness();
    const c = await createPayment(h, { returnUrl });
    const { done } = await pay(h, c.json.paymentRef, APPROVED);
    expect(done.trail.at(-1)?.status).toBe(303);
    expect(done.trail.at(-1)?.headers.get("cache-control")).toBe("no-store");
    expect(done.leftTo).toBe(expected.replace("CODE", c.json.paymentCode));
  });
});

describe("product 5 amounts recorded at capture", () => {
  it.each([
    // gross: commission on the charged amount
    ["gross, single charge", "T-1", 1, 10_000, 199, null, 199, 9_801],
    ["gross, brand row with the rate only", "T-1", 3, 10_000, 420, null, 420, 9_580],
    ["net, fixed fee", "T-NET", 6, 10_000, 720, 50, 770, 9_230],
    ["net, rounding half up", "T-NET", 1, 12_345, 220, null, 272, 12_073],
  ])("%s", async (_n, terminalId, installment, amount, rate, fee, commission, net) => {
    h = await harness();
    const c = await createPayment(h, { terminalId, installment, amount });
    await pay(h, c.json.paymentRef, APPROVED);
    expect(await paymentRow(h, c.json.paymentCode)).toMatchObject({
      status: "captured",
      appliedRateBps: rate,
      appliedFixedFee: fee,
      commissionAmount: commission,
      netToPartner: net,
      capturedAtMs: T0,
    });
  });

  it("net basis on a link payment: commission on the principal (the link's base amount), not the charged total", async () => {
    h = await harness();
    const p = await linkPaymentOf(h, { terminalId: "T-NET", baseAmount: 10_000, amount: 10_220 });
    const { done } = await pay(h, p.paymentRef, APPROVED);
    expect(done.page?.url ?? done.leftTo).toContain("/l/done?paymentCode=");
    expect(await paymentRow(h, p.code)).toMatchObject({ channel: "link", commissionAmount: 220, netToPartner: 10_000 });
  });

  it.each([
    ["23:59 Istanbul: that date + 1 value day", "2026-11-20T20:59:00.000Z", "T-1", 1, "2026-11-21"],
    ["00:00 Istanbul: the next date + 1", "2026-11-20T21:00:00.000Z", "T-1", 1, "2026-11-22"],
    ["per-count override wins", "2026-11-20T09:00:00.000Z", "T-VD", 3, "2026-11-25"],
    ["the default of that terminal elsewhere", "2026-11-20T09:00:00.000Z", "T-VD", 1, "2026-11-22"],
  ])("expectedValueDate, %s", async (_n, at, terminalId, installment, date) => {
    h = await harness({
      seed: seedWith({
        terminals: [
          {
            id: "T-VD",
            partner: "ptn_test",
            connection: "vpos-1",
            installments: [1, 3],
            valueDays: { default: 2, "3": 5 },
            rates: [
              { count: 1, rateBps: 100 },
              { count: 3, rateBps: 300 },
            ],
          },
        ],
      }),
    });
    h.clock.set(Date.parse(at));
    const c = await createPayment(h, { terminalId, installment });
    await pay(h, c.json.paymentRef, APPROVED);
    expect((await paymentRow(h, c.json.paymentCode)).expectedValueDate).toBe(date);
  });
});

describe("DESIGN request flow 3: crash safety of the bank step", () => {
  it("a crash after '3D started' and before the bank answered: the ref stays used, the window expiry resolves it", async () => {
    h = await harness({ allow500: true });
    const c = await createPayment(h);
    const bank = h.deps.banks.sim;
    h.deps.banks.sim = { ...bank, start3d: () => Promise.reject(new Error("process died here")) };
    const crashed = await handOff(h, c.json.paymentRef, APPROVED);
    expect(crashed.page?.status).toBe(500);
    h.deps.banks.sim = bank;
    expect(await paymentRow(h, c.json.paymentCode)).toMatchObject({ status: "initiated", threeDStarted: true });
    expect((await h.store.q.attempts.byPayment(c.json.paymentCode)).map((a) => a.status)).toEqual(["starting"]);
    expect((await handOff(h, c.json.paymentRef, APPROVED)).page?.status).toBe(409);
    await h.advance(30 * MINUTE_MS);
    expect((await paymentRow(h, c.json.paymentCode)).status).toBe("expired");
    expect((await h.store.q.attempts.byPayment(c.json.paymentCode)).map((a) => a.status)).toEqual(["failed"]);
  });

  it("a crash during capture: the callback cannot be replayed into a second capture; the expiry resolves it", async () => {
    h = await harness({ allow500: true });
    const c = await createPayment(h);
    const { form, fields } = acsForm(await handOff(h, c.json.paymentRef, APPROVED));
    const bank = h.deps.banks.sim;
    let captures = 0;
    h.deps.banks.sim = {
      ...bank,
      capture: () => {
        captures += 1;
        return Promise.reject(new Error("process died here"));
      },
    };
    expect((await postCallback(h, form.action, fields)).page?.status).toBe(500);
    h.deps.banks.sim = {
      ...bank,
      capture: (input) => {
        captures += 1;
        return bank.capture(input);
      },
    };
    expect((await postCallback(h, form.action, fields)).page?.status).toBe(400);
    expect(captures).toBe(1);
    expect((await h.store.q.attempts.byPayment(c.json.paymentCode)).map((a) => a.status)).toEqual(["capturing"]);
    await h.advance(30 * MINUTE_MS);
    expect((await paymentRow(h, c.json.paymentCode)).status).toBe("expired");
  });

  it("the window closing while the bank captures: the payment stays expired, the approval is voided (product 17)", async () => {
    h = await harness();
    const c = await createPayment(h);
    const { form, fields } = acsForm(await handOff(h, c.json.paymentRef, APPROVED));
    const bank = h.deps.banks.sim;
    h.deps.banks.sim = {
      ...bank,
      capture: async (input) => {
        await h.advance(30 * MINUTE_MS);
        return bank.capture(input);
      },
    };
    const done = await postCallback(h, form.action, fields);
    expect(done.leftTo).toContain("status=failed");
    expect((await paymentRow(h, c.json.paymentCode)).status).toBe("expired");
    expect(await eventsOf(h, c.json.paymentCode)).toEqual(["payment.expired"]);
    expect(h.log.lines.some((l) => l.includes("capture approved after the payment left initiated"))).toBe(true);
    const [attempt] = await h.store.q.attempts.byPayment(c.json.paymentCode);
    expect(await h.store.q.bank.check(attempt!.id)).toMatchObject({ kind: "void", outcome: "voided", dueAtMs: null });
    expect(h.log.lines.some((l) => l.includes("late capture voided"))).toBe(true);
  });

  it("a genuine callback after the window (the timer not yet run) expires the payment and does not capture", async () => {
    h = await harness();
    const c = await createPayment(h);
    h.clock.set(T0 + 25 * MINUTE_MS); // the ACS session (10 min) outlives the payment's window
    const { form, fields } = acsForm(await handOff(h, c.json.paymentRef, APPROVED));
    h.clock.set(T0 + 30 * MINUTE_MS);
    const done = await postCallback(h, form.action, fields);
    expect(done.leftTo).toBe(`https://shop.example/checkout/done?paymentCode=${c.json.paymentCode}&status=failed`);
    expect((await paymentRow(h, c.json.paymentCode)).status).toBe("expired");
    expect(await eventsOf(h, c.json.paymentCode)).toEqual(["payment.expired"]);
    expect((await h.store.q.attempts.byPayment(c.json.paymentCode)).map((a) => a.status)).toEqual(["failed"]);
  });
});

describe("interface 3.2 / product 6 partner cardAttemptLimit", () => {
  it("defaults to 3 (product 5) and follows the partner's setting", async () => {
    h = await harness({ seed: seedWith({ partner: { cardAttemptLimit: 5 } }) });
    const c = await createPayment(h);
    for (let i = 0; i < 5; i++) await handOff(h, c.json.paymentRef, "5400007700000003");
    expect((await handOff(h, c.json.paymentRef, APPROVED)).page?.status).toBe(429);
  });
});

describe("interface 6 the outbox row commits with the state change", () => {
  it("a partner without a webhook URL gets no outbox rows, the payment still captures", async () => {
    h = await harness({ seed: seedWith({ partner: { webhook: null } }) });
    const c = await createPayment(h);
    await answerAcs(h, await handOff(h, c.json.paymentRef, APPROVED));
    expect((await paymentRow(h, c.json.paymentCode)).status).toBe("captured");
    expect(await eventsOf(h, c.json.paymentCode)).toEqual([]);
  });
});
