import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { encodeFormText } from "../../../../src/bank/form-bytes";
import { gateCallbackFields } from "../../../../src/bank/garanti/sim/gate-callback";
import { createGarantiSimulator, type GarantiSimulator } from "../../../../src/bank/garanti/sim/simulator";
import { readXml, writeXml, xmlText } from "../../../../src/bank/garanti/xml";
import type { XmlTree } from "../../../../src/bank/garanti/xml";

// Issue 31: the simulator anchored to the vectors. Its gate takes G-FORM2 as the bank's own test
// gate did, its signer reproduces G-CB1…G-CB3, its API takes G-XML2's document and the HashData of
// G-HD3 (void, refund user) and G-HD7 (orderinq); a wrong password or an old answer is refused.

type Vector = {
  id: string;
  inputs: Record<string, string>;
  fields: Record<string, string>;
  input: unknown;
  expected: string;
  storeKey: string;
};
const FILE = JSON.parse(readFileSync(new URL("./garanti-vectors.json", import.meta.url), "utf8")) as {
  account: Record<string, string>;
  vectors: Vector[];
};
const byId = (id: string) => FILE.vectors.find((v) => v.id === id) as Vector;
const { note: _note, ...MEWS } = FILE.account as Record<string, string>;
const ACCOUNT = MEWS as unknown as Parameters<typeof createGarantiSimulator>[0]["accounts"][number];
/** 2025-01-15 12:00 Istanbul. */
const NOON = Date.UTC(2025, 0, 15, 9, 0, 0);

const sim = (): GarantiSimulator =>
  createGarantiSimulator({ accounts: [ACCOUNT], nowMs: () => NOON, nonce: () => "TESTNONCE0123456789abc", slowMs: 50 });

const gatePost = (s: GarantiSimulator, fields: Record<string, string>) =>
  s.gate(
    new Request("https://bank.test/sim-garanti/servlet/gt3dengine", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: encodeFormText(Object.entries(fields)),
    }),
  );

const apiPost = async (s: GarantiSimulator, body: Uint8Array | string) => {
  const res = await s.api(new Request("https://bank.test/sim-garanti/VPServlet", { method: "POST", body: body as BodyInit }));
  return readXml(new Uint8Array(await res.arrayBuffer()));
};

describe("issue 31: the Garanti simulator's gate", () => {
  it("takes G-FORM2 (the mews account's signed form with a card) and answers the signed callback form", async () => {
    const v = byId("G-FORM2");
    const res = await gatePost(sim(), { ...v.inputs, cardnumber: "4282209004348015", secure3dhash: v.expected });
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('action="https://domain.com/success"');
    expect(page).toContain('name="hashparams" value="clientid:oid:authcode:procreturncode:response:mdstatus:cavv:eci:md:rnd:"');
    expect(page).not.toContain("4282209004348015");
  });

  it.each([
    ["a wrong secure3dhash", { secure3dhash: "0".repeat(128) }, "secure3dhash"],
    ["apiversion v0.01", { apiversion: "v0.01" }, "apiversion"],
    ["a decimal amount", { txnamount: "100.25" }, "txnamount"],
    ["a card number that fails Luhn", { cardnumber: "4282209004348016" }, "kart"],
  ])("refuses %s with a 400 page naming the problem, never the card", async (_name, change, word) => {
    const v = byId("G-FORM2");
    const res = await gatePost(sim(), { ...v.inputs, cardnumber: "4282209004348015", secure3dhash: v.expected, ...change });
    expect(res.status).toBe(400);
    const page = await res.text();
    expect(page.toLowerCase()).toContain(word.toLowerCase());
    expect(page).not.toContain("428220900434801");
  });

  it.each([["G-CB1"], ["G-CB2"], ["G-CB3"]])("%s: the signer reproduces the bank's hash", (id) => {
    const v = byId(id);
    const f = v.fields;
    const fields = gateCallbackFields({
      posted: [
        ["terminalid", f.clientid as string],
        ["orderid", f.oid as string],
      ],
      pan: "",
      storeKey: v.storeKey,
      threeD: {
        mdStatus: f.mdstatus ?? "",
        md: f.md ?? "",
        xid: f.xid ?? "",
        eci: f.eci ?? "",
        cavv: f.cavv ?? "",
        txnStatus: "",
        mdErrorMessage: "",
      },
      payment: null,
      rnd: f.rnd as string,
    });
    expect(new Map(fields).get("hash")).toBe(v.expected);
    expect(new Map(fields).get("hashparamsval")).toBe(f.hashparamsval);
  });
});

describe("issue 31: the Garanti simulator's VPServlet", () => {
  it("reads G-XML2's document (its HashData is G-HD9's): the 3D data is unknown, so a GVPS refusal, not a hash error", async () => {
    const doc = await apiPost(sim(), byId("G-XML2").expected);
    expect(xmlText(doc, "Transaction/Response/Code")).toBe("92");
    expect(xmlText(doc, "Transaction/Response/ReasonCode")).toBe("0650");
    expect(xmlText(doc, "Transaction/Response/ErrorMsg")).toContain("3D");
  });

  const request = (type: string, orderId: string, amount: string, hash: string, user: string): XmlTree => [
    ["Mode", "TEST"],
    ["Version", "512"],
    [
      "Terminal",
      [
        ["ProvUserID", user],
        ["UserID", user],
        ["HashData", hash],
        ["ID", "30691298"],
        ["MerchantID", "7000679"],
      ],
    ],
    ["Customer", [["IPAddress", "127.0.0.1"]]],
    ["Order", [["OrderID", orderId]]],
    [
      "Transaction",
      [
        ["Type", type],
        ["InstallmentCnt", ""],
        ["Amount", amount],
        ["CurrencyCode", "949"],
        ["CardholderPresentCode", "0"],
        ["MotoInd", "N"],
        ["OriginalRetrefNum", ""],
      ],
    ],
  ];

  it("G-HD7 (orderinq, provision user): accepted, no record (92/0110); as data=<urlencoded xml> too", async () => {
    const xml = writeXml("GVPSRequest", request("orderinq", "2020110828BC", "100", byId("G-HD7").expected, "PROVAUT"));
    for (const body of [xml, `data=${encodeURIComponent(new TextDecoder().decode(xml))}`]) {
      const doc = await apiPost(sim(), body);
      expect(xmlText(doc, "Transaction/Response/Code")).toBe("92");
      expect(xmlText(doc, "Transaction/Response/ReasonCode")).toBe("0110");
    }
  });

  it("G-HD3 (void, refund user): accepted, nothing to void (0214); the same hash as the provision user is refused", async () => {
    const asRefundUser = await apiPost(
      sim(),
      writeXml("GVPSRequest", request("void", "4499996", "100", byId("G-HD3").expected, "PROVRFN")),
    );
    expect(xmlText(asRefundUser, "Transaction/Response/ReasonCode")).toBe("0214");
    const asProvUser = await apiPost(sim(), writeXml("GVPSRequest", request("void", "4499996", "100", byId("G-HD3").expected, "PROVAUT")));
    expect(xmlText(asProvUser, "Transaction/Response/ReasonCode")).toBe("0651");
  });

  it("a legacy SHA-1 HashData (G-XML1) and an unreadable body are refused", async () => {
    expect(xmlText(await apiPost(sim(), byId("G-XML1").expected), "Transaction/Response/ReasonCode")).toBe("0651");
    expect(xmlText(await apiPost(sim(), "<GVPSRequest><Mode>"), "Transaction/Response/Code")).toBe("92");
  });
});
