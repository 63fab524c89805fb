import { describe, expect, it } from "vitest";
import { writeXml } from "../../../../../src/bank/est/xml";
import { ACC, api, auth, creds, harness, PANS, postApiRaw, sale, threeD } from "./helpers";

const DAY = 24 * 60 * 60 * 1000;

describe("EST simulator API: envelope", () => {
  it("answers ISO-8859-9 XML with the children in EST's order", async () => {
    const { sim } = harness();
    const cb = await threeD(sim, { oid: "O-ENV", amount: "10.00" });
    const res = await postApiRaw(
      sim,
      new Uint8Array(writeXml("CC5Request", creds({ Type: "Auth", OrderId: "O-ENV", Total: "10.00", Number: cb.f.md as string }))),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/xml; charset=ISO-8859-9");
    const text = Buffer.from(await res.arrayBuffer()).toString("latin1");
    expect(text.startsWith('<?xml version="1.0" encoding="ISO-8859-9"?>\n<CC5Response><OrderId>O-ENV</OrderId><GroupId>')).toBe(true);
    const order = [...text.matchAll(/<(\w+)>/g)].map((m) => m[1]).slice(1, 14);
    expect(order).toEqual([
      "OrderId",
      "GroupId",
      "Response",
      "AuthCode",
      "HostRefNum",
      "ProcReturnCode",
      "TransId",
      "ErrMsg",
      "Extra",
      "SETTLEID",
      "TRXDATE",
      "ERRORCODE",
      "NUMCODE",
    ]);
  });
  it("accepts a DATA= body, raw or percent-encoded", async () => {
    const { sim } = harness();
    const xml = Buffer.from(writeXml("CC5Request", creds({ OrderId: "NONE", Extra: { ORDERSTATUS: "QUERY" } }))).toString("latin1");
    for (const body of [`DATA=${xml}`, `DATA=${encodeURIComponent(xml)}`]) {
      const res = await postApiRaw(sim, body);
      expect(Buffer.from(await res.arrayBuffer()).toString("latin1")).toContain("No record found for NONE");
    }
  });
  it("answers XML parse error for garbage and a credentials error for a wrong password", async () => {
    const { sim } = harness();
    const res = await postApiRaw(sim, "<CC5Request><Name>x</CC5Request");
    const text = await res.text();
    expect(text).toContain("<Response>Error</Response>");
    expect(text).toContain("<ProcReturnCode>99</ProcReturnCode>");
    expect(text).toContain("<ErrMsg>XML parse error</ErrMsg>");
    const wrong = await api(sim, { ...creds({ Type: "Void", OrderId: "X" }), Password: "nope" });
    expect(wrong.r).toMatchObject({ Response: "Error", ProcReturnCode: "99", ErrMsg: "Kullanici adi veya sifre hatali." });
    expect(wrong.extra.ERRORCODE).toBe("CORE-2001");
    const unknownClient = await api(sim, creds({ ClientId: "123", Type: "Void", OrderId: "X" }));
    expect(unknownClient.r.ErrMsg).toBe("Kullanici adi veya sifre hatali.");
  });
});

describe("EST simulator API: Auth", () => {
  it("approves once; the same md again is refused with the XID message (ISO-8859-9)", async () => {
    const { sim } = harness();
    const cb = await threeD(sim, { oid: "O-1", amount: "100.00" });
    const first = await auth(sim, cb, "100.00");
    expect(first.r).toMatchObject({ OrderId: "O-1", GroupId: "O-1", Response: "Approved", ProcReturnCode: "00", ErrMsg: "" });
    expect(first.r.AuthCode).toMatch(/^\d{6}$/);
    expect(first.r.HostRefNum).toMatch(/^\d{12}$/);
    expect(first.r.TransId).not.toBe("");
    expect(first.extra.TRXDATE).toBe("20250115 12:00:00");
    const raw = await postApiRaw(
      sim,
      new Uint8Array(writeXml("CC5Request", creds({ Type: "Auth", OrderId: "O-1", Total: "100.00", Number: cb.f.md as string }))),
    );
    const bytes = new Uint8Array(await raw.arrayBuffer());
    const msg = "XID daha önce kullanılmıştır. Tekrar kullanılamaz.";
    // ö = 0xF6, ı = 0xFD in ISO-8859-9.
    expect(Buffer.from(bytes).includes(Buffer.from("kullan\xfdlm\xfd\xfet\xfdr", "latin1"))).toBe(true);
    expect(Buffer.from(bytes).includes(Buffer.from("XID daha \xf6nce", "latin1"))).toBe(true);
    const again = await auth(sim, cb, "100.00");
    expect(again.r).toMatchObject({ Response: "Error", ProcReturnCode: "99", ErrMsg: msg });
  });
  it("refuses an amount that differs from the 3D amount, and lets the right one through after", async () => {
    const { sim } = harness();
    const cb = await threeD(sim, { oid: "O-2", amount: "100.00" });
    const wrong = await auth(sim, cb, "100.01");
    expect(wrong.r).toMatchObject({ ProcReturnCode: "99", ErrMsg: "Tutar uyusmuyor" });
    expect((await auth(sim, cb, "100")).r.ProcReturnCode).toBe("00");
  });
  it("refuses an md of another order, an unauthenticated md and an unknown md", async () => {
    const { sim } = harness();
    const cb = await threeD(sim, { oid: "O-3" });
    expect((await auth(sim, cb, "100.00", "O-OTHER")).r.ProcReturnCode).toBe("99");
    const failed = await threeD(sim, { oid: "O-4", pan: PANS.authFails });
    expect((await auth(sim, failed, "100.00")).r.ProcReturnCode).toBe("99");
    const unknown = await api(sim, creds({ Type: "Auth", OrderId: "O-5", Total: "1", Number: "400000:FFFF:1234:##700655000300" }));
    expect(unknown.r).toMatchObject({ Response: "Error", ProcReturnCode: "99" });
  });
  it("declines insufficient funds with 51", async () => {
    const { sim } = harness();
    const cb = await threeD(sim, { oid: "O-51", pan: PANS.insufficient, amount: "5.00" });
    const res = await auth(sim, cb, "5.00");
    expect(res.r).toMatchObject({ Response: "Declined", ProcReturnCode: "51", ErrMsg: "Yetersiz bakiye", AuthCode: "" });
    expect((await api(sim, creds({ OrderId: "O-51", Extra: { ORDERSTATUS: "QUERY" } }))).r.ProcReturnCode).toBe("99");
  });
});

describe("EST simulator API: Void and Credit", () => {
  it("voids an order in A once; the second Void is CORE-2008", async () => {
    const { sim } = harness();
    await sale(sim, "O-V", "20.00");
    const first = await api(sim, creds({ Type: "Void", OrderId: "O-V" }));
    expect(first.r).toMatchObject({ Response: "Approved", ProcReturnCode: "00" });
    const second = await api(sim, creds({ Type: "Void", OrderId: "O-V" }));
    expect(second.r).toMatchObject({ Response: "Error", ProcReturnCode: "99", ErrMsg: "İptal edilmeye uygun satış işlemi bulunamadı." });
    expect(second.extra.ERRORCODE).toBe("CORE-2008");
    expect((await api(sim, creds({ OrderId: "O-V", Extra: { ORDERSTATUS: "QUERY" } }))).extra.TRANS_STAT).toBe("V");
  });
  it("declines a Void for the refund_declined card", async () => {
    const { sim } = harness();
    await sale(sim, "O-RD", "20.00", PANS.refundDeclined);
    const res = await api(sim, creds({ Type: "Void", OrderId: "O-RD" }));
    expect(res.r).toMatchObject({ ProcReturnCode: "99", ErrMsg: "Islem reddedildi" });
  });
  it("refuses a Credit before end of day (CORE-2508), approves partial credits after, refuses past the remainder (215021)", async () => {
    const { sim } = harness();
    await sale(sim, "O-C", "100.00");
    const early = await api(sim, creds({ Type: "Credit", OrderId: "O-C", Total: "10.00" }));
    expect(early.r).toMatchObject({ ProcReturnCode: "99", ErrMsg: "Iade yapilamaz, siparis gunsonuna girmemis." });
    expect(early.extra.ERRORCODE).toBe("CORE-2508");
    sim.endOfDay();
    const zero = await api(sim, creds({ Type: "Credit", OrderId: "O-C", Total: "0" }));
    expect(zero.r.ErrMsg).toBe("Sifir miktarli iade yapilamaz.");
    expect(zero.extra.ERRORCODE).toBe("CORE-2504");
    expect((await api(sim, creds({ Type: "Credit", OrderId: "O-C", Total: "60.5" }))).r).toMatchObject({
      Response: "Approved",
      ProcReturnCode: "00",
    });
    const over = await api(sim, creds({ Type: "Credit", OrderId: "O-C", Total: "39.51" }));
    expect(over.r).toMatchObject({ ProcReturnCode: "99", ErrMsg: "Net Tutar 0." });
    expect(over.extra.ERRORCODE).toBe("215021");
    expect((await api(sim, creds({ Type: "Credit", OrderId: "O-C", Total: "39.50" }))).r.ProcReturnCode).toBe("00");
    expect((await api(sim, creds({ Type: "Credit", OrderId: "O-C", Total: "0.01" }))).extra.ERRORCODE).toBe("215021");
    expect((await api(sim, creds({ Type: "Void", OrderId: "O-C" }))).extra.ERRORCODE).toBe("CORE-2008");
  });
  it("settles an order authorised on an earlier Istanbul day without endOfDay", async () => {
    const { sim, clock } = harness();
    clock.now = Date.UTC(2025, 0, 15, 20, 30); // 23:30 Istanbul
    await sale(sim, "O-MID", "10.00");
    clock.now = Date.UTC(2025, 0, 15, 20, 59);
    expect((await api(sim, creds({ Type: "Credit", OrderId: "O-MID", Total: "1" }))).extra.ERRORCODE).toBe("CORE-2508");
    clock.now = Date.UTC(2025, 0, 15, 21, 1); // 00:01 next day in Istanbul
    expect((await api(sim, creds({ Type: "Credit", OrderId: "O-MID", Total: "1" }))).r.ProcReturnCode).toBe("00");
  });
  it("declines a Credit for the refund_declined card", async () => {
    const { sim, clock } = harness();
    await sale(sim, "O-RC", "20.00", PANS.refundDeclined);
    clock.now += DAY;
    const res = await api(sim, creds({ Type: "Credit", OrderId: "O-RC", Total: "5" }));
    expect(res.r).toMatchObject({ Response: "Declined", ErrMsg: "Islem reddedildi" });
  });
});

describe("EST simulator API: queries", () => {
  it("ORDERSTATUS: no record, then the order's facts in kuruş", async () => {
    const { sim } = harness();
    const none = await api(sim, creds({ OrderId: "O-S", Extra: { ORDERSTATUS: "QUERY" } }));
    expect(none.r).toMatchObject({ ProcReturnCode: "99", ErrMsg: "No record found for O-S" });
    const a = await sale(sim, "O-S", "1234.5");
    const found = await api(sim, creds({ OrderId: "O-S", Extra: { ORDERSTATUS: "QUERY" } }));
    expect(found.r).toMatchObject({ ProcReturnCode: "00", ErrMsg: "Record(s) found for O-S", AuthCode: a.r.AuthCode });
    expect(found.extra).toMatchObject({
      TRANS_STAT: "A",
      CHARGE_TYPE_CD: "S",
      ORIG_TRANS_AMT: "123450",
      CAPTURE_AMT: "123450",
      AUTH_CODE: a.r.AuthCode,
      HOST_REF_NUM: a.r.HostRefNum,
      PROC_RET_CD: "00",
      AUTH_DTTM: "2025-01-15 12:00:00.000",
    });
    sim.endOfDay();
    expect((await api(sim, creds({ OrderId: "O-S", Extra: { ORDERSTATUS: "QUERY" } }))).extra.TRANS_STAT).toBe("S");
  });
  it("ORDERHISTORY: the sale, then each credit, 11 tab-separated columns", async () => {
    const { sim, clock } = harness();
    const a = await sale(sim, "O-H", "50.00");
    sim.endOfDay();
    clock.now += 60_000;
    const c = await api(sim, creds({ Type: "Credit", OrderId: "O-H", Total: "7.25" }));
    const h = await api(sim, creds({ OrderId: "O-H", Extra: { ORDERHISTORY: "QUERY" } }));
    expect(h.r.ProcReturnCode).toBe("00");
    expect(h.extra.TRXCOUNT).toBe("2");
    expect(h.extra.TRX1?.split("\t")).toEqual([
      "S",
      "S",
      "5000",
      "5000",
      "2025-01-15 12:00:00.000",
      "",
      "",
      a.r.HostRefNum,
      a.r.AuthCode,
      "00",
      a.r.TransId,
    ]);
    expect(h.extra.TRX2?.split("\t")).toEqual([
      "C",
      "S",
      "725",
      "725",
      "2025-01-15 12:01:00.000",
      "",
      "",
      c.r.HostRefNum,
      c.r.AuthCode,
      "00",
      c.r.TransId,
    ]);
    const none = await api(sim, creds({ OrderId: "O-NONE", Extra: { ORDERHISTORY: "QUERY" } }));
    expect(none.r.ErrMsg).toBe("No record found for O-NONE");
  });
});

describe("EST simulator API: calls()", () => {
  it("records every request in order, without card data", async () => {
    const { sim } = harness();
    await sale(sim, "O-CALLS", "3.50");
    await api(sim, creds({ Type: "Void", OrderId: "O-CALLS" }));
    await api(sim, creds({ OrderId: "O-CALLS", Extra: { ORDERSTATUS: "QUERY" } }));
    await postApiRaw(sim, "junk");
    expect(sim.calls("O-CALLS").map((c) => [c.type, c.total, c.procReturnCode])).toEqual([
      ["Auth", 350, "00"],
      ["Void", null, "00"],
      ["ORDERSTATUS", null, "00"],
    ]);
    expect(sim.calls()).toHaveLength(4);
    expect(sim.calls()[3]).toMatchObject({ type: "", procReturnCode: "99" });
    const dump = JSON.stringify(sim.calls());
    expect(dump).not.toContain(PANS.approve);
    expect(dump).not.toContain(PANS.approve.slice(6));
    expect(sim.calls()[0]).toMatchObject({ clientId: ACC.clientId, atMs: Date.UTC(2025, 0, 15, 9) });
  });
});
