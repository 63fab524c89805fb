import { it } from "vitest";
import { harness, T0 } from "../../support/harness";
import { linkRow } from "./fixtures";
import { LINK_STATUSES } from "../../../src/domain/payment-links/machine";

it("plans", async () => {
  const h = await harness();
  let t = performance.now();
  await h.store.write((tx) => {
    for (let i = 0; i < 100_005; i++) {
      tx.links.insert(linkRow({ id: `pl_${String(i).padStart(8, "0")}`, createdAtMs: T0 + Math.floor(i / 3) * 1000, partnerReference: i + 1, status: LINK_STATUSES[i % 7]!, amount: 100 + (i % 1000) }));
    }
  });
  console.log("seed", performance.now() - t);
  const base = { partnerId: "ptn_test", statuses: null, minAmount: null, maxAmount: null, createdFromMs: null, createdToMs: null, limit: 200, offset: 0 };
  const combos: any[] = [
    {}, { statuses: ["pending"] }, { statuses: ["pending", "expired"] }, { statuses: ["pending","launched","initiated","completed","expired","failed","cancelled"] }, { minAmount: 500 }, { maxAmount: 105 }, { minAmount: 500, maxAmount: 501 },
    { createdFromMs: T0 + 1000_000 }, { createdToMs: T0 + 1000_000 }, { createdFromMs: T0 + 1000_000, createdToMs: T0 + 2000_000 },
    { statuses: ["pending", "expired"], createdFromMs: T0 + 1000_000, createdToMs: T0 + 2000_000, minAmount: 500 },
    { offset: 99_800 }, { statuses: ["pending", "expired"], offset: 28_000 }, { maxAmount: 100, offset: 0 }, { maxAmount: 100, statuses: ["failed"] },
  ];
  for (const c of combos) {
    const f = { ...base, ...c };
    const q = h.store.q.links.listQueryForPlan(f);
    const plan = h.store.db.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all<any>(...q.params).map((r) => r.detail);
    t = performance.now();
    const n = h.store.q.links.list(f).length;
    console.log(JSON.stringify(c), n, (performance.now() - t).toFixed(1), plan.join(" | "));
  }
  await h.close();
}, 60000);
