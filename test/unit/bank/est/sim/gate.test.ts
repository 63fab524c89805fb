import { describe, expect, it } from "vitest";
import { asciiBytes, ver3Matches } from "../../../../../src/bank/est/hash";
import { decodeIso88599, encodeIso88599 } from "../../../../../src/bank/iso-8859-9";
import { decideThreeD, gateCallbackFields, MERCHANT_NAME, maskPan } from "../../../../../src/bank/est/sim/simulator";
import { ACC, formBody, gateFields, harness, PANS, postGate, threeD } from "./helpers";

const errorText = async (res: Response): Promise<string> => {
  const page = await res.text();
  expect(page).not.toContain("<form");
  return /<p id="est-sim-error">([^<]*)<\/p>/.exec(page)?.[1] ?? "";
};

describe("EST simulator gate: request checks", () => {
  it("answers a 200 error page, without a form, for a wrong hash", async () => {
    const { sim } = harness();
    const res = await postGate(sim, formBody(gateFields({ storeKey: "WRONGKEY" })));
    expect(res.status).toBe(200);
    expect(await errorText(res)).toContain("Hash");
  });
  it("rejects a tampered amount (hash no longer matches)", async () => {
    const { sim } = harness();
    const fields = gateFields().map(([n, v]) => [n, n === "amount" ? "1.00" : v] as [string, string]);
    expect(await errorText(await postGate(sim, formBody(fields)))).toContain("Hash");
  });
  it("rejects an unknown clientid, a missing field and a non-ver3 hashAlgorithm, never echoing the card", async () => {
    const { sim } = harness();
    const unknown = await postGate(sim, formBody(gateFields({ clientid: "999" })));
    expect(await errorText(unknown)).toContain("clientid");
    const missing = gateFields().filter(([n]) => n !== "cv2");
    const page = await (await postGate(sim, formBody(missing))).text();
    expect(page).toContain("Eksik alan: cv2");
    expect(page).not.toContain(PANS.approve);
    expect(await errorText(await postGate(sim, formBody(gateFields({ hashAlgorithm: "ver2" }))))).toContain("ver3");
  });
});

describe("EST simulator gate: callback", () => {
  it("posts an ISO-8859-9 form whose HASH verifies over the callback bytes", async () => {
    const { sim } = harness();
    const cb = await threeD(sim);
    expect(cb.page).toContain('accept-charset="ISO-8859-9"');
    expect(cb.action).toBe("https://shop.example/est/ok?x=1");
    const hash = cb.f.HASH as string;
    expect(ver3Matches(cb.raw, asciiBytes(ACC.storeKey), hash)).toBe(true);
    expect(ver3Matches(cb.raw, asciiBytes("OTHERKEY"), hash)).toBe(false);
    // merchantName travels as ISO-8859-9 bytes: ğ = 0xF0, ı = 0xFD.
    const name = cb.raw.find(([n]) => n === "merchantName")?.[1] as Uint8Array;
    expect(Buffer.from(name).equals(Buffer.from(encodeIso88599(MERCHANT_NAME)))).toBe(true);
    expect(cb.body).toContain("merchantName=Kasa+Demo+Ma%F0azas%FD&");
    // Any change to a hashed field breaks it.
    const tampered = cb.raw.map(([n, v]) => [n, n === "amount" ? asciiBytes("1.00") : v] as const);
    expect(ver3Matches(tampered, asciiBytes(ACC.storeKey), hash)).toBe(false);
  });
  it("posts to the callback's origin; its CSP lets the redirect after it go anywhere http(s), as a bank page's does", async () => {
    const { sim } = harness();
    const res = await postGate(sim, formBody(gateFields()));
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("form-action https://shop.example https: http:;");
    expect(csp).toContain("script-src 'nonce-");
  });
  it("echoes the merchant's fields and adds the bank's, with a new rnd", async () => {
    const { sim } = harness();
    const { f } = await threeD(sim, { oid: "O-ECHO", amount: "12.5" });
    expect(f).toMatchObject({
      clientid: ACC.clientId,
      oid: "O-ECHO",
      amount: "12.5",
      Ecom_Payment_Card_ExpDate_Month: "12",
      Ecom_Payment_Card_ExpDate_Year: "30",
      maskedCreditCard: "4000 00** **** 0009",
      MaskedPan: "400000***0009",
      mdStatus: "1",
      txstatus: "Y",
      eci: "05",
      version: "2.0",
      hashAlgorithm: "ver3",
      encoding: "ISO-8859-9",
      merchantName: MERCHANT_NAME,
    });
    expect(f.rnd).toMatch(/^[A-Za-z0-9+/]{20}$/);
    expect(f.rnd).not.toBe("abcdefghij0123456789");
    expect(f.md).toMatch(new RegExp(`^400000:[0-9A-F]{64}:\\d{4}:##${ACC.clientId}$`));
    expect(Buffer.from(f.xid as string, "base64")).toHaveLength(20);
    expect(Buffer.from(f.cavv as string, "base64")).toHaveLength(20);
  });
  it("never carries the PAN, the CVV or the merchant's hash", async () => {
    const { sim } = harness();
    const cb = await threeD(sim, { pan: PANS.approve });
    const names = cb.raw.map(([n]) => n);
    expect(names).not.toContain("pan");
    expect(names).not.toContain("cv2");
    expect(names).not.toContain("hash");
    expect(names.filter((n) => n === "HASH")).toHaveLength(1);
    expect(cb.page).not.toContain(PANS.approve);
    expect(cb.raw.some(([, v]) => decodeIso88599(v) === "123")).toBe(false);
  });
  it.each([
    [PANS.approve, "1", "Y", "05", "ok"],
    [PANS.approveMc, "1", "Y", "02", "ok"],
    [PANS.authFails, "0", "N", "", "fail"],
    [PANS.declineAt3d, "7", "N", "", "fail"],
    [PANS.insufficient, "1", "Y", "05", "ok"],
    [PANS.refundDeclined, "1", "Y", "05", "ok"],
  ])("card %s -> mdStatus %s", async (pan, mdStatus, txstatus, eci, target) => {
    const { sim } = harness();
    const { f, action, raw } = await threeD(sim, { pan });
    expect(f.mdStatus).toBe(mdStatus);
    expect(f.txstatus).toBe(txstatus);
    expect(f.eci).toBe(eci);
    expect(action).toBe(target === "ok" ? "https://shop.example/est/ok?x=1" : "https://shop.example/est/fail");
    expect(ver3Matches(raw, asciiBytes(ACC.storeKey), f.HASH as string)).toBe(true);
    if (mdStatus === "0") expect(f).toMatchObject({ mdErrorMsg: "Not authenticated", cavv: "" });
    if (mdStatus === "7") expect(f).toMatchObject({ ErrMsg: "Isyeri kullanim tipi desteklenmiyor.", ErrCode: "3D-1007" });
  });
  it("sends a card number that is not 12-19 digits to failUrl without mdStatus (HPP-1001)", async () => {
    const { sim } = harness();
    const { f, action, raw } = await threeD(sim, { pan: "4000-0011" });
    expect(action).toBe("https://shop.example/est/fail");
    expect("mdStatus" in f).toBe(false);
    expect(f).toMatchObject({ Response: "Error", ErrorCode: "HPP-1001", maskedCreditCard: "", MaskedPan: "" });
    expect(ver3Matches(raw, asciiBytes(ACC.storeKey), f.HASH as string)).toBe(true);
  });
  it("3d_pay authorises at once and signs the payment fields", async () => {
    const { sim } = harness();
    const { f, raw } = await threeD(sim, { storetype: "3d_pay", oid: "O-PAY", amount: "25.00" });
    expect(f).toMatchObject({ Response: "Approved", ProcReturnCode: "00", ReturnOid: "O-PAY", ErrMsg: "" });
    expect(f.AuthCode).toMatch(/^\d{6}$/);
    expect(f.HostRefNum).toMatch(/^\d{12}$/);
    expect(f.EXTRA_TRXDATE).toBe("20250115 12:00:00");
    expect(ver3Matches(raw, asciiBytes(ACC.storeKey), f.HASH as string)).toBe(true);
    const declined = await threeD(sim, { storetype: "3d_pay", oid: "O-PAY-51", pan: PANS.insufficient });
    expect(declined.f).toMatchObject({ Response: "Declined", ProcReturnCode: "51", ErrMsg: "Yetersiz bakiye" });
  });
});

describe("gateCallbackFields (pure)", () => {
  it("builds the same signed bytes a test can post with encodeFormBytes", () => {
    const posted = gateFields().map(([n, v]) => [n, asciiBytes(v)] as const);
    const threeDResult = decideThreeD(PANS.approve, ACC.clientId);
    const cb = gateCallbackFields({ posted, storeKey: ACC.storeKey, threeD: threeDResult, rnd: "R".repeat(20) });
    expect(cb.action).toBe("https://shop.example/est/ok?x=1");
    const hash = new TextDecoder().decode(cb.fields.at(-1)?.[1]);
    expect(cb.fields.at(-1)?.[0]).toBe("HASH");
    expect(ver3Matches(cb.fields, asciiBytes(ACC.storeKey), hash)).toBe(true);
    const names = cb.fields.map(([n]) => n);
    expect(names).not.toContain("pan");
    expect(names).not.toContain("cv2");
  });
  it("masks 16- and 19-digit numbers", () => {
    expect(maskPan("4355084355084358")).toEqual({ maskedCreditCard: "4355 08** **** 4358", MaskedPan: "435508***4358" });
    expect(maskPan("4355084355084358123")).toEqual({ maskedCreditCard: "4355 08** **** ***8 123", MaskedPan: "435508***8123" });
    expect(maskPan("12345")).toEqual({ maskedCreditCard: "", MaskedPan: "" });
  });
});
