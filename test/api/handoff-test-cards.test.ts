import { afterEach, describe, expect, it } from "vitest";
import { TEST_CARDS } from "../../src/bank/test-cards";
import type { Outcome, Visit } from "../../src/http/sandbox/form-client";
import { harness, type Harness } from "../support/harness";
import { answerAcs, createPayment, eventsOf, handOff, pageCode, paymentRow, RETURN_URL, TEST_CARDS_SEED } from "./payments-flow";

let h: Harness;
afterEach(async () => h?.close());

// Every row of product 6's test-card table, through the browser-less client without JavaScript:
// form POST to the relay, the <noscript> button of the auto-submitting bank form, the ACS page,
// the one-time code, the callback's 303. T-FX sits on a connection that accepts foreign cards.

type Ending =
  | { kind: "captured"; family: string | null; bank: string | null }
  | { kind: "failed-at-callback" }
  | { kind: "refused"; status: number; code: string | null };

type Scenario = { pan: string; terminalId: string; installment: number; ending: Ending };

const captured = (family: string | null, bank: string | null): Ending => ({ kind: "captured", family, bank });

const SCENARIOS: Scenario[] = [
  { pan: "4000001100000009", terminalId: "T-1", installment: 3, ending: captured("credit", "Demo Bank A") },
  { pan: "4000002200000006", terminalId: "T-1", installment: 6, ending: captured("credit", "Demo Bank B") },
  { pan: "5400006600000006", terminalId: "T-1", installment: 1, ending: captured("credit", "Demo Bank C") },
  { pan: "4000003300000003", terminalId: "T-1", installment: 1, ending: captured("debit", "Demo Bank A") },
  { pan: "4000003300000003", terminalId: "T-1", installment: 3, ending: { kind: "refused", status: 422, code: "installment_not_allowed" } },
  { pan: "4000004400000000", terminalId: "T-1", installment: 1, ending: captured("prepaid", "Demo Bank B") },
  { pan: "4000004400000000", terminalId: "T-1", installment: 2, ending: { kind: "refused", status: 422, code: "installment_not_allowed" } },
  { pan: "4000005500000006", terminalId: "T-FX", installment: 1, ending: captured("foreign", null) },
  { pan: "4000005500000006", terminalId: "T-1", installment: 1, ending: { kind: "refused", status: 422, code: null } },
  { pan: "5400007700000003", terminalId: "T-1", installment: 1, ending: { kind: "refused", status: 422, code: "payment_declined" } },
  { pan: "4000008800000007", terminalId: "T-1", installment: 1, ending: { kind: "failed-at-callback" } },
  { pan: "4000009900000004", terminalId: "T-1", installment: 1, ending: { kind: "failed-at-callback" } },
  { pan: "4000001200000008", terminalId: "T-1", installment: 1, ending: captured("credit", "Demo Bank A") },
  { pan: "4000001200000008", terminalId: "T-1", installment: 3, ending: { kind: "refused", status: 422, code: "installment_not_allowed" } },
  { pan: "5400001300000000", terminalId: "T-1", installment: 1, ending: captured("credit", "Demo Bank B") },
  { pan: "4000001500000005", terminalId: "T-1", installment: 1, ending: captured("credit", "Demo Bank A") },
  { pan: "3400001400000004", terminalId: "T-1", installment: 1, ending: captured(null, null) },
];

/** Product 6 / issue 7: every card page is strict, uncached and free of third-party scripts. */
function expectStrictPage(v: Visit): void {
  expect(v.headers.get("cache-control")).toBe("no-store");
  if (v.status === 303) return;
  const csp = v.headers.get("content-security-policy") ?? "";
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toMatch(/script-src 'nonce-[^']+'(;|$)/);
  expect(v.body).not.toMatch(/<script\b[^>]*\bsrc=/i);
  expect(v.body).not.toMatch(/https?:\/\/(?!kasa\.test)[a-z0-9.-]+\/[^"]*\.(js|css)/i);
}

const formActionOf = (v: Visit): string => /form-action ([^;]+)/.exec(v.headers.get("content-security-policy") ?? "")?.[1] ?? "";

async function journey(h: Harness, s: Scenario): Promise<{ code: string; acs: Outcome; done: Outcome | null }> {
  const c = await createPayment(h, { terminalId: s.terminalId, installment: s.installment });
  expect(c.status).toBe(201);
  const acs = await handOff(h, c.json.paymentRef, s.pan);
  const reachedAcs = acs.page?.status === 200 && acs.page.url.endsWith("/sim-bank/acs");
  return { code: c.json.paymentCode, acs, done: reachedAcs ? await answerAcs(h, acs) : null };
}

describe("product 6 test cards end to end through the form-following client (no JavaScript)", () => {
  it("covers every card of the table", () => {
    expect(new Set(SCENARIOS.map((s) => s.pan))).toEqual(new Set(TEST_CARDS.map((c) => c.pan)));
  });

  it.each(SCENARIOS.map((s) => [`${s.pan} on ${s.terminalId} x${s.installment} -> ${s.ending.kind}`, s] as const))("%s", async (_n, s) => {
    h = await harness({ seed: TEST_CARDS_SEED });
    const { code, acs, done } = await journey(h, s);
    for (const v of [...acs.trail, ...(done?.trail ?? [])]) expectStrictPage(v);
    const row = await paymentRow(h, code);
    if (s.ending.kind === "refused") {
      expect(done).toBeNull();
      expect([acs.page?.status, pageCode(acs.page!.body)]).toEqual([s.ending.status, s.ending.code]);
      expect(row.status).toBe("initiated");
      return;
    }
    // The relay's page: 200, the auto-submitting bank form, form-action exactly the bank's origin.
    const relay = acs.trail[0]!;
    expect(relay.status).toBe(200);
    expect(relay.forms[0]).toMatchObject({ autoSubmit: true, action: "http://kasa.test/sim-bank/acs" });
    expect(formActionOf(relay)).toBe("http://kasa.test");
    // The ACS page may post to the callback and the 303 after it may land on the partner (product 6).
    expect(formActionOf(acs.page!)).toBe("http://kasa.test https://shop.example");
    const status = s.ending.kind === "captured" ? "captured" : "failed";
    expect(done?.leftTo).toBe(`${RETURN_URL}?paymentCode=${code}&status=${status}`);
    expect(row.status).toBe(status);
    expect(await eventsOf(h, code)).toEqual([`payment.${status}`]);
    if (s.ending.kind === "captured") {
      expect(row).toMatchObject({
        cardFamily: s.ending.family,
        cardBank: s.ending.bank,
        maskedPan: `${s.pan.slice(0, 6)}******${s.pan.slice(-4)}`,
      });
      expect(row.commissionAmount).not.toBeNull();
    }
  });
});
