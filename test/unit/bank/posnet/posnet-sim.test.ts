import { describe, expect, it } from "vitest";
import { callbackSign, requestMac } from "../../../../src/bank/posnet/crypt";
import { POSNET_SIM_ACCOUNT } from "../../../../src/bank/posnet/sim/accounts";
import { createPosnetSimulator } from "../../../../src/bank/posnet/sim/routes";
import { requestBody } from "../../../../src/bank/posnet/wire";
import { readXml, textOf, writeXml, type XmlFields } from "../../../../src/bank/posnet/xml";

// Issue 33: the Posnet simulator speaks the protocol as the note describes it: unknown terminals
// get 0148, raw and url-encoded `xmldata` are both read, a 3D session is served once, the packets
// must belong together and carry the attempt's mac, and the charge is single-use (`approved 2`).

const T0 = Date.parse("2026-03-02T09:00:00Z");
const XID = "ABCDEFGHIJ0123456789";
const A = POSNET_SIM_ACCOUNT;

function bank() {
  const sim = createPosnetSimulator({ accounts: [A], nowMs: () => T0, nonce: () => "bm9uY2Utbm9uY2Utbm9uY2U" });
  const call = async (fields: XmlFields, account = A) => {
    const res = await sim.api(new Request("https://bank.test/x", { method: "POST", body: requestBody(account, fields) }));
    return readXml(new Uint8Array(await res.arrayBuffer()), "posnetResponse");
  };
  const gate = async (form: Record<string, string>) => {
    const res = await sim.gate(new Request("https://bank.test/g", { method: "POST", body: new URLSearchParams(form).toString() }));
    return res.text();
  };
  return { sim, call, gate };
}

const requestData = (over: Record<string, string> = {}): XmlFields => ({
  oosRequestData: {
    posnetid: A.posnetId,
    ccno: "4000001100000009",
    expDate: "3412",
    cvc: "731",
    amount: "12345",
    currencyCode: "TL",
    installment: "00",
    XID,
    cardHolderName: "",
    tranType: "Sale",
    ...over,
  },
});

async function toCallback(b: ReturnType<typeof bank>) {
  const started = await b.call(requestData());
  const r = started?.children.find((c) => c.name === "oosRequestDataResponse");
  const page = await b.gate({
    mid: A.merchantId,
    posnetID: A.posnetId,
    posnetData: textOf(r, "data1")!,
    posnetData2: textOf(r, "data2")!,
    digest: textOf(r, "sign")!,
    merchantReturnURL: "http://kasa.test/handoff/callback/att-x",
    url: "",
    lang: "tr",
  });
  const value = (name: string) => new RegExp(`name="${name}" value="([0-9A-F]+)"`).exec(page)?.[1] ?? "";
  return { page, merchantData: value("MerchantPacket"), bankData: value("BankPacket"), sign: value("Sign"), r };
}

const mac = requestMac(A, XID, "12345", "TL");

describe("issue 33: the Posnet simulator", () => {
  it("an unknown mid/tid gets 0148, as an unregistered IP does", async () => {
    const doc = await bank().call({ agreement: { orderID: `TDSC${XID}` } }, { ...A, terminalId: "67000000" });
    expect(textOf(doc, "respCode")).toBe("0148");
  });

  it("reads a raw xmldata body too", async () => {
    const b = bank();
    const raw = new TextDecoder("latin1").decode(
      writeXml("posnetRequest", { mid: A.merchantId, tid: A.terminalId, agreement: { orderID: `TDSC${XID}` } }),
    );
    const res = await b.sim.api(new Request("https://bank.test/x", { method: "POST", body: `xmldata=${raw}` }));
    expect(textOf(readXml(new Uint8Array(await res.arrayBuffer()), "posnetResponse"), "respCode")).toBe("0123");
  });

  it.each([
    ["a short XID", { XID: "123" }, "E189"],
    ["a card failing Luhn", { ccno: "4000001100000008" }, "0876"],
    ["another currency", { currencyCode: "US" }, "0013"],
    ["installment 01", { installment: "01" }, "0014"],
    ["an amount with a comma", { amount: "1,75" }, "0012"],
  ])("oosRequestData refuses %s", async (_name, over, code) => {
    expect(textOf(await bank().call(requestData(over)), "respCode")).toBe(code);
  });

  it("the 3D page serves a session once and signs its callback with the vendor-kit Sign", async () => {
    const b = bank();
    const cb = await toCallback(b);
    expect(cb.sign).toBe(callbackSign(cb.merchantData, cb.bankData, A.encKey));
    const again = await b.gate({
      mid: A.merchantId,
      posnetID: A.posnetId,
      posnetData: textOf(cb.r, "data1")!,
      posnetData2: textOf(cb.r, "data2")!,
      digest: textOf(cb.r, "sign")!,
      merchantReturnURL: "http://kasa.test/cb",
      url: "",
      lang: "tr",
    });
    expect(again).toContain("daha önce kullanıldı");
  });

  it("resolve wants the attempt's mac (E216 otherwise) and packets that belong together", async () => {
    const b = bank();
    const { merchantData, bankData, sign } = await toCallback(b);
    const wrongMac = await b.call({ oosResolveMerchantData: { bankData, merchantData, sign, mac: requestMac(A, XID, "12346", "TL") } });
    expect(textOf(wrongMac, "respCode")).toBe("E216");
    const mixed = await b.call({ oosResolveMerchantData: { bankData: "AB", merchantData, sign, mac } });
    expect(textOf(mixed, "approved")).toBe("0");
    const ok = await b.call({ oosResolveMerchantData: { bankData, merchantData, sign, mac } });
    expect(textOf(ok, "approved")).toBe("1");
  });

  it("oosTranData charges once: a second gets approved 2 (0127) with the first one's hostlogkey", async () => {
    const b = bank();
    const { merchantData, bankData, sign } = await toCallback(b);
    const tran = { oosTranData: { bankData, merchantData, sign, wpAmount: "0", mac } };
    const first = await b.call(tran);
    expect(textOf(first, "approved")).toBe("1");
    const second = await b.call(tran);
    expect({ approved: textOf(second, "approved"), respCode: textOf(second, "respCode") }).toEqual({ approved: "2", respCode: "0127" });
    expect(textOf(second, "hostlogkey")).toBe(textOf(first, "hostlogkey"));
    const status = await b.call({ agreement: { orderID: `TDSC${XID}` } });
    expect(textOf(status, "approved")).toBe("1");
    expect(b.sim.calls(XID).map((c) => c.operation)).toEqual(["oosRequestData", "oosTranData", "oosTranData", "agreement"]);
  });
});
