import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isChargeable } from "../../src/domain/installments/options";
import { resolveCardForTerminal } from "../../src/domain/installments/service";
import type { SeedFile } from "../../src/domain/partners/seed-schema";
import { harness, type Harness } from "../support/harness";
import { TEST_SEED } from "../support/fixtures";
import type { PartnerRow } from "../../src/store/rows";

// Interface 4.8: "Every installmentCount listed is accepted at payment creation with the same
// rateBps/fixedFee for the same terminal and BIN; any count not listed is not chargeable."
// Checked over HTTP against the charge-time check the handoff will run (isChargeable on the
// inputs of resolveCardForTerminal), for every fixture terminal, every fixture BIN and an
// unresolved one, every count 0..13, with and without an amount.

const SEED: SeedFile = {
  ...TEST_SEED,
  connections: [...TEST_SEED.connections!, { id: "vpos-2", psp: "psp-1", bank: "sim", acceptsForeignCards: true, acceptsDebit: false }],
  partners: TEST_SEED.partners!.map((p) => (p.id === "ptn_test" ? { ...p, installmentCap: 9 } : p)),
  terminals: [
    ...TEST_SEED.terminals!,
    {
      id: "T-CREDIT",
      partner: "ptn_test",
      connection: "vpos-1",
      installments: [1, 3],
      allowedCardFamilies: ["credit"],
      rates: [
        { count: 1, rateBps: 199 },
        { count: 3, rateBps: 450 },
      ],
    },
    {
      id: "T-ONUS",
      partner: "ptn_test",
      connection: "vpos-2",
      commissionBasis: "net",
      installments: [1, 3, 6, 12],
      bank: "Demo Bank A",
      rates: [
        { count: 1, rateBps: 199 },
        { count: 1, rateBps: 150, onUs: true },
        { count: 3, rateBps: 450, fixedFee: 25 },
        { count: 3, brand: "world", rateBps: 430 },
        { count: 3, brand: "bonus", onUs: true, rateBps: 400 },
        { count: 6, rateBps: 600, onUs: true },
        { count: 12, rateBps: 1100 },
      ],
    },
  ],
};

const TERMINALS = ["T-1", "T-NET", "T-OFF", "T-OTHER", "T-CREDIT", "T-ONUS"];
const BINS = [...SEED.bins!.map((b) => b.bin), "34000014"];
const REQUESTS = [{}, { baseAmount: 12345, customerCommissionShareBps: 5000 }, { baseAmount: 1 }];

let h: Harness;
let partner: PartnerRow;
beforeAll(async () => {
  h = await harness({ seed: SEED });
  partner = (await h.store.q.partners.get("ptn_test"))!;
});
afterAll(async () => h.close());

describe("interface 4.8 promise: listed exactly when chargeable, at the same rate", () => {
  it.each(TERMINALS)("terminal %s, every BIN, counts 0..13", async (terminalId) => {
    for (const bin of BINS) {
      for (const request of REQUESTS) {
        const r = await h.post("/v1/installment-options", { bin, terminalId, ...request });
        if (r.status === 403) {
          // Refused terminals: not owned, inactive, or family not allowed; nothing is chargeable.
          expect(r.json.error.code).toBe("terminal_not_allowed");
          continue;
        }
        expect(r.status, `${terminalId} ${bin}`).toBe(200);
        const resolved = await resolveCardForTerminal(h.store.q, terminalId, partner, bin);
        const share = { baseAmount: request.baseAmount ?? null, shareBps: request.customerCommissionShareBps ?? null };
        for (let count = 0; count <= 13; count += 1) {
          const listed = r.json.options.find((o: { installmentCount: number }) => o.installmentCount === count);
          const charge = isChargeable(resolved.pricing, resolved.card, count, share);
          if (listed) expect(charge, `${terminalId} ${bin} x${count}`).toEqual({ outcome: "ok", option: listed });
          else expect(charge.outcome, `${terminalId} ${bin} x${count}`).toBe("rejected");
        }
      }
    }
  });

  it("the effective set respects the partner cap: no count above 9 is listed or chargeable", async () => {
    const r = await h.post("/v1/installment-options", { bin: "40000011", terminalId: "T-1" });
    expect(r.json.options.map((o: { installmentCount: number }) => o.installmentCount)).toEqual([1, 2, 3, 6, 9]);
    const resolved = await resolveCardForTerminal(h.store.q, "T-1", partner, "40000011");
    expect(isChargeable(resolved.pricing, resolved.card, 12)).toEqual({ outcome: "rejected", code: "installment_not_allowed", reason: 2 });
  });

  it("on-us rows apply only to the terminal bank's cards (product 16)", async () => {
    const onUs = await h.post("/v1/installment-options", { bin: "40000011", terminalId: "T-ONUS" });
    expect(onUs.json.options.map((o: { installmentCount: number; rateBps: number }) => [o.installmentCount, o.rateBps])).toEqual([
      [1, 150],
      [3, 400],
      [6, 600],
    ]);
    const offUs = await h.post("/v1/installment-options", { bin: "40000022", terminalId: "T-ONUS" });
    expect(offUs.json.options.map((o: { installmentCount: number; rateBps: number }) => [o.installmentCount, o.rateBps])).toEqual([
      [1, 199],
      [3, 430],
    ]);
  });
});
