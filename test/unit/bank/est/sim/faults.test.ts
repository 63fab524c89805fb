import { describe, expect, it } from "vitest";
import { readXml } from "../../../../../src/bank/est/xml";
import { fromLira as liraToKurus } from "../../../../../src/bank/est/amounts";
import { toLira as kurusToLira } from "../../../../../src/lira";
import { EST_SIM_FAULTS } from "../../../../../src/bank/est/sim/simulator";
import { api, auth, creds, harness, postApiRaw, sale, threeD } from "./helpers";
import { writeXml } from "../../../../../src/bank/est/xml";

const authRaw = async (amount: string, slowMs = 50) => {
  const h = harness(slowMs);
  const cb = await threeD(h.sim, { oid: `O${amount}`, amount });
  const xml = writeXml("CC5Request", creds({ Type: "Auth", OrderId: `O${amount}`, Total: amount, Number: cb.f.md as string }));
  const started = performance.now();
  const res = await postApiRaw(h.sim, new Uint8Array(xml));
  const bytes = new Uint8Array(await res.arrayBuffer());
  const status = await api(h.sim, creds({ OrderId: `O${amount}`, Extra: { ORDERSTATUS: "QUERY" } }));
  return { ...h, res, bytes, elapsed: performance.now() - started, status };
};

describe("EST simulator faults", () => {
  it("lists every suffix for the sandbox banner", () => {
    expect(Object.keys(EST_SIM_FAULTS)).toEqual([".91", ".92", ".93", ".94", ".95", ".96"]);
  });
  it(".91 answers valid XML after slowMs, the order authorised", async () => {
    const { res, bytes, elapsed, status, sim } = await authRaw("10.91", 50);
    expect(elapsed).toBeGreaterThanOrEqual(45);
    expect(res.status).toBe(200);
    expect(readXml(bytes, "CC5Response")?.ProcReturnCode).toBe("00");
    expect(status.extra.TRANS_STAT).toBe("A");
    expect(sim.calls("O10.91")[0]).toMatchObject({ fault: ".91", procReturnCode: "00" });
  });
  it(".92 answers HTTP 500 text/plain and records nothing", async () => {
    const { res, bytes, status, sim } = await authRaw("10.92");
    expect(res.status).toBe(500);
    expect(res.headers.get("content-type")).toContain("text/plain");
    expect(readXml(bytes, "CC5Response")).toBeNull();
    expect(status.r.ErrMsg).toBe("No record found for O10.92");
    expect(sim.calls("O10.92")[0]).toMatchObject({ type: "Auth", fault: ".92", procReturnCode: null });
  });
  it(".93 answers an HTML page with 200, the order authorised", async () => {
    const { res, bytes, status } = await authRaw("10.93");
    expect(res.status).toBe(200);
    expect(new TextDecoder().decode(bytes)).toBe("<html><body>Service Unavailable</body></html>");
    expect(status.extra.TRANS_STAT).toBe("A");
  });
  it(".94 answers garbage bytes, the order authorised", async () => {
    const { res, bytes, status } = await authRaw("10.94");
    expect(res.status).toBe(200);
    expect(bytes.length).toBeGreaterThan(0);
    expect(readXml(bytes, "CC5Response")).toBeNull();
    expect(status.extra.TRANS_STAT).toBe("A");
  });
  it(".95 answers truncated XML, the order authorised", async () => {
    const { res, bytes, status } = await authRaw("10.95");
    expect(res.status).toBe(200);
    const text = Buffer.from(bytes).toString("latin1");
    expect(text.startsWith('<?xml version="1.0" encoding="ISO-8859-9"?>\n<CC5Response>')).toBe(true);
    expect(text).not.toContain("</CC5Response>");
    expect(readXml(bytes, "CC5Response")).toBeNull();
    expect(status.extra.TRANS_STAT).toBe("A");
  });
  it("Void takes the fault from the order's amount; .92 leaves the order in A", async () => {
    const { sim } = harness();
    // 3d_pay authorises at the gate, which has no faults; an Auth for 7.92 would itself fail.
    await threeD(sim, { storetype: "3d_pay", oid: "O-V92", amount: "7.92" });
    const res = await postApiRaw(sim, new Uint8Array(writeXml("CC5Request", creds({ Type: "Void", OrderId: "O-V92" }))));
    expect(res.status).toBe(500);
    expect((await api(sim, creds({ OrderId: "O-V92", Extra: { ORDERSTATUS: "QUERY" } }))).extra.TRANS_STAT).toBe("A");
    await threeD(sim, { storetype: "3d_pay", oid: "O-V93", amount: "7.93" });
    const html = await postApiRaw(sim, new Uint8Array(writeXml("CC5Request", creds({ Type: "Void", OrderId: "O-V93" }))));
    expect(await html.text()).toContain("Service Unavailable");
    expect((await api(sim, creds({ OrderId: "O-V93", Extra: { ORDERSTATUS: "QUERY" } }))).extra.TRANS_STAT).toBe("V");
  });
  it("Credit takes the fault from Total; .95 still records the credit, .92 does not", async () => {
    const { sim } = harness();
    await sale(sim, "O-C9", "100.00");
    sim.endOfDay();
    const post = (total: string) =>
      postApiRaw(sim, new Uint8Array(writeXml("CC5Request", creds({ Type: "Credit", OrderId: "O-C9", Total: total }))));
    expect((await post("1.92")).status).toBe(500);
    expect(readXml(new Uint8Array(await (await post("1.95")).arrayBuffer()), "CC5Response")).toBeNull();
    const h = await api(sim, creds({ OrderId: "O-C9", Extra: { ORDERHISTORY: "QUERY" } }));
    expect(h.extra.TRXCOUNT).toBe("2");
    expect(h.extra.TRX2?.split("\t")[2]).toBe("195");
  });
  it("queries and a normal amount are never faulted", async () => {
    const { sim } = harness();
    const cb = await threeD(sim, { oid: "O-OK", amount: "10.90" });
    expect((await auth(sim, cb, "10.90")).r.ProcReturnCode).toBe("00");
  });
});

describe("amounts", () => {
  it.each([
    ["1", 100],
    ["1.5", 150],
    ["1.50", 150],
    ["0.01", 1],
    ["1234.56", 123456],
    ["999999999999.99", 99999999999999],
  ])("%s lira is %i kuruş", (lira, kurus) => {
    expect(liraToKurus(lira)).toBe(kurus);
  });
  it.each(["", "1.", ".5", "1.505", "1,50", "-1", "1e2", " 1"])("rejects %j", (text) => {
    expect(liraToKurus(text)).toBeNull();
  });
  it("formats kuruş back to lira", () => {
    expect(kurusToLira(123405)).toBe("1234.05");
    expect(kurusToLira(5)).toBe("0.05");
  });
});
