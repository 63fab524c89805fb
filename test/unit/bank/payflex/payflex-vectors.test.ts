import { describe, expect, it } from "vitest";
import { readEnrollment, readSearch, readVposResponse } from "../../../../src/bank/payflex/answers";
import type { PayflexConfig } from "../../../../src/bank/payflex/config";
import { cancelXml, enrollmentFields, refundXml, saleXml, searchXml } from "../../../../src/bank/payflex/requests";
import { encodeForm, prmstrBody } from "../../../../src/bank/payflex/wire";
import { parseXml, toRecord, writeDocument, writeVposRequest } from "../../../../src/bank/payflex/xml";
import vectors from "./payflex-vectors.json";

// Issue 35: every vector of the PayFlex research re-produced with kasa's own code, byte for byte
// (sources in SOURCES.md).

type Vector = {
  id: string;
  label: string;
  input?: unknown;
  expected: unknown;
  expectedXml?: string;
  expectedBody?: string;
  account?: Record<string, string>;
  transport?: { body: string };
};
const all = vectors.vectors as Vector[];
const byId = (id: string): Vector => {
  const v = all.find((x) => x.id === id);
  if (!v) throw new Error(`no vector ${id}`);
  return v;
};

const configOf = (account: Record<string, string> | undefined): PayflexConfig => ({
  mpiUrl: "https://mpi.test",
  vposUrl: "https://vpos.test",
  searchUrl: "https://search.test",
  merchantId: account?.merchantId ?? "000000000111111",
  password: account?.password ?? "3XTgER89as",
  terminalNo: account?.terminalNo ?? "VP999999",
  merchantType: 0,
  subMerchantId: null,
  timeoutMs: 1000,
});

describe("payflex vectors (issue 35)", () => {
  it("holds the 28 vectors, 7 of them verified", () => {
    expect(all).toHaveLength(28);
    expect(all.filter((v) => v.label === "V")).toHaveLength(7);
  });

  it("pf_vpos_sale_nonsecure_xml: the VposRequest serializer, and its prmstr body", () => {
    const v = byId("pf_vpos_sale_nonsecure_xml");
    const xml = writeVposRequest(Object.entries(v.input as Record<string, string>));
    expect(xml).toBe(v.expected);
    expect(prmstrBody(xml)).toBe(v.transport?.body);
  });

  it("pf_search_request_xml: declaration, newlines and empty pairs; and kasa's search by one id", () => {
    const v = byId("pf_search_request_xml");
    const input = v.input as { MerchantCriteria: Record<string, string>; TransactionCriteria: Record<string, string> };
    const xml = writeDocument("SearchRequest", [
      ["MerchantCriteria", Object.entries(input.MerchantCriteria)],
      ["TransactionCriteria", Object.entries(input.TransactionCriteria)],
    ]);
    expect(xml).toBe(v.expected);
    expect(prmstrBody(xml)).toBe(v.transport?.body);
    // kasa names the attempt both ways; the shape is the same.
    expect(searchXml(configOf(undefined), "", "order222")).toBe(v.expected);
  });

  it("pf_vpos_response_9039: decoded; the HTML page and the empty body are no answer", () => {
    const v = byId("pf_vpos_response_9039");
    expect(Object.fromEntries(readVposResponse(v.input as string) ?? [])).toEqual(v.expected);
    expect(readVposResponse(byId("pf_vpos_response_html_rejected").input as string)).toBeNull();
    expect(readVposResponse(byId("pf_vpos_response_empty").input as string)).toBeNull();
  });

  it.each(["pf_enrollment_response_y", "pf_enrollment_response_e_2023", "pf_enrollment_response_e_2005"])("%s decodes", (id) => {
    const v = byId(id);
    const root = parseXml((v.input as string | undefined) ?? v.expectedXml!);
    expect(root).not.toBeNull();
    expect(toRecord(root!)).toEqual(v.expected);
  });

  it("the enrollment answers as kasa reads them: Y with its ACS form; E with its code in either place", () => {
    const y = readEnrollment(byId("pf_enrollment_response_y").input as string);
    expect(y).toMatchObject({
      status: "Y",
      acsUrl: "https://dropit.3dsecure.net:9443/PIT/ACS",
      md: "crrz1no5d6b951b06fa043379458dc835b71d0c8",
    });
    expect(y?.paReq).not.toBe("");
    expect(readEnrollment(byId("pf_enrollment_response_e_2023").input as string)).toMatchObject({ status: "E", errorCode: "2023" });
    expect(readEnrollment(byId("pf_enrollment_response_e_2005").expectedXml!)).toMatchObject({ status: "E", errorCode: "2005" });
  });

  it.each(["pf_enrollment_request", "pf_enrollment_request_installment"])("%s: the fields and their urlencoded body", (id) => {
    const v = byId(id);
    const input = v.input as {
      order: { amount: number; installment: number; success_url: string; fail_url: string };
      card: { number: string };
    };
    const expected = v.expected as Record<string, string>;
    const fields = enrollmentFields(configOf(v.account), {
      id: "rand123",
      amount: input.order.amount * 100,
      installment: input.order.installment,
      callbackUrl: input.order.success_url,
      pan: input.card.number,
      expiry: "2112",
      brand: "100",
    });
    // kasa posts one callback URL as both; the vector's FailureUrl differs, nothing else does.
    const withFail = fields.map(([n, value]) => [n, n === "FailureUrl" ? input.order.fail_url : value] as [string, string]);
    expect(Object.fromEntries(withFail)).toEqual(expected);
    expect(withFail.map(([n]) => n)).toEqual(Object.keys(expected));
    expect(encodeForm(withFail)).toBe(v.expectedBody);
  });

  it.each(["pf_3d_sale_request", "pf_3d_sale_request_installment"])(
    "%s: kasa's Sale is the vector without Cvv and CardHoldersName",
    (id) => {
      const v = byId(id);
      const expected = v.expected as Record<string, string>;
      const xml = saleXml(configOf(v.account), {
        attemptId: "order222",
        amount: 10_000,
        installment: Number(expected.NumberOfInstallments ?? "1"),
        eci: expected.ECI!,
        cavv: expected.CAVV!,
        clientIp: expected.ClientIp!,
        pan: expected.Pan!,
        expiry: expected.Expiry!,
      }).replace("<MpiTransactionId>order222</MpiTransactionId>", `<MpiTransactionId>${expected.MpiTransactionId}</MpiTransactionId>`);
      const withoutCard = v.expectedXml!.replace("<CardHoldersName>ahmet</CardHoldersName><Cvv>122</Cvv>", "");
      expect(xml).toBe(withoutCard);
    },
  );

  it("pf_cancel_request and pf_refund_request: byte for byte, XML and body", () => {
    const c = byId("pf_cancel_request");
    const cancel = cancelXml(configOf(c.account), "7022b92e-3aa1-44fb-86d4-33658c700c80", "127.0.0.1");
    expect(cancel).toBe(c.expectedXml);
    expect(prmstrBody(cancel)).toBe(c.expectedBody);
    const r = byId("pf_refund_request");
    const refund = refundXml(configOf(r.account), "7022b92e-3aa1-44fb-86d4-33658c700c80", 500, "127.0.0.1");
    expect(refund).toBe(r.expectedXml);
    expect(prmstrBody(refund)).toBe(r.expectedBody);
  });

  it("every quoted VposResponse decodes to its fixture", () => {
    const answers = all.filter((v) => v.expectedXml?.startsWith("<VposResponse>"));
    expect(answers.length).toBeGreaterThanOrEqual(8);
    for (const v of answers) expect([v.id, Object.fromEntries(readVposResponse(v.expectedXml!) ?? [])]).toEqual([v.id, v.expected]);
  });

  it("pf_search_request_by_transaction_id and pf_capture_request: the shapes the serializer writes", () => {
    const s = byId("pf_search_request_by_transaction_id");
    const expected = s.expected as { MerchantCriteria: Record<string, string>; TransactionCriteria: Record<string, string> };
    expect(searchXml(configOf(undefined), expected.TransactionCriteria.TransactionId!, expected.TransactionCriteria.OrderId!)).toBe(
      s.expectedXml,
    );
    expect(prmstrBody(s.expectedXml!)).toBe(s.expectedBody);
    // Not a call kasa makes (it sells with Sale); the serializer still writes it as quoted.
    const c = byId("pf_capture_request");
    expect(writeVposRequest(Object.entries(c.expected as Record<string, string>))).toBe(c.expectedXml);
  });

  it("pf_search_response_found and pf_search_response_9065 decode to their fixtures", () => {
    for (const id of ["pf_search_response_found", "pf_search_response_9065"]) {
      const v = byId(id);
      expect(toRecord(parseXml(v.expectedXml!)!)).toEqual(v.expected);
    }
  });

  it("the Search answers: an item, and a refused query", () => {
    const found = readSearch(byId("pf_search_response_found").expectedXml!);
    expect(found).toMatchObject({ ok: true, items: [{ transactionType: "Sale", resultCode: "0000", amount: 9050, canceled: false }] });
    expect(readSearch(byId("pf_search_response_9065").expectedXml!)).toEqual({ ok: false, code: "9065", message: "Üye isyeri bulunamadi" });
  });

  it("the callbacks' bodies parse back to their fields", async () => {
    const { parseCallbackForm } = await import("../../../../src/bank/payflex/callback");
    for (const id of ["pf_callback_y", "pf_callback_e_1105"]) {
      const v = byId(id);
      expect(Object.fromEntries(parseCallbackForm(new TextEncoder().encode(v.expectedBody!)) ?? [])).toEqual(v.expected);
      expect(encodeForm(Object.entries(v.expected as Record<string, string>))).toBe(v.expectedBody);
    }
  });
});

describe("payflex XML reading refuses what is not one document", () => {
  it.each([
    ["a cut document", "<VposResponse><ResultCode>0000</ResultCode><ResultDetail>İŞ"],
    ["text after the root", "<VposResponse><ResultCode>0000</ResultCode></VposResponse>trailing"],
    ["mismatched tags", "<VposResponse><ResultCode>0000</ResultDetail></VposResponse>"],
    ["a bare ampersand", "<VposResponse><ResultCode>0000</ResultCode><ResultDetail>a & b</ResultDetail></VposResponse>"],
    ["another root", "<CC5Response><ResultCode>0000</ResultCode></CC5Response>"],
    ["no ResultCode", "<VposResponse><ResultDetail>ok</ResultDetail></VposResponse>"],
  ])("%s", (_name, text) => {
    expect(readVposResponse(text)).toBeNull();
  });

  it("a value with <, > or & goes in CDATA and reads back", () => {
    const xml = writeVposRequest([["Password", "a<b&c>d"]]);
    expect(xml).toBe("<VposRequest><Password><![CDATA[a<b&c>d]]></Password></VposRequest>");
    expect(toRecord(parseXml(xml)!)).toEqual({ Password: "a<b&c>d" });
  });
});
