import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { toAkbankConfig } from "../../../../src/bank/akbank/config";
import { orderHistoryBody, phpJson, refundBody, type SecureTransaction, saleBody, voidBody } from "../../../../src/bank/akbank/requests";
import { fromRequestDateTime, istanbulDay, requestDateTime } from "../../../../src/bank/akbank/wire-time";
import { fromAmountNumber, fromLira, toInstallCount } from "../../../../src/bank/akbank/amounts";
import { readDailyData } from "../../../../src/bank/akbank/daily-list";
import { gzipSync } from "node:zlib";

// kasa's own request builders give the bodies of the vectors (key order, types, escaping), and the
// wire's time, amounts and installment count follow the protocol note.

type Input = { requestDateTime: string; randomNumber: string; order: { orderId: string }; secureTransaction: SecureTransaction };
type Vector = { id: string; input: Input; body?: string };
const FILE = JSON.parse(readFileSync(new URL("./akbank-vectors.json", import.meta.url), "utf8")) as { vectors: Vector[] };
const byId = (id: string) => FILE.vectors.find((v) => v.id === id)!;

const config = toAkbankConfig({
  model: "3d",
  gateUrl: "https://virtualpospaymentgatewaypre.akbank.com/securepay",
  apiUrl: "https://apipre.akbank.com/api/v1/payment/virtualpos",
  merchantSafeId: "2023090417500272654BD9A49CF07574",
  terminalSafeId: "2023090417500284633D137A249DBBEB",
  secretKey: "x",
});
const envelopeOf = (v: Vector) => ({ nowMs: fromRequestDateTime(v.input.requestDateTime)!, random: v.input.randomNumber });

describe("AkbankPos request bodies", () => {
  it("order history (1010), void (1003) and refund (1002) are the vectors' bytes", () => {
    const history = byId("akbank_body_order_history");
    expect(phpJson(orderHistoryBody(config, envelopeOf(history), history.input.order.orderId))).toBe(history.body);
    const voided = byId("akbank_body_void");
    expect(phpJson(voidBody(config, envelopeOf(voided), voided.input.order.orderId))).toBe(voided.body);
    const refund = byId("akbank_body_refund");
    expect(phpJson(refundBody(config, envelopeOf(refund), refund.input.order.orderId, 102))).toBe(refund.body);
  });

  it("the sale (1000) keeps the vector's key order and types; the buyer's address is not sent", () => {
    const v = byId("akbank_body_3d_provision");
    const body = saleBody(config, envelopeOf(v), {
      orderId: "20240418BA6C",
      amount: 101,
      installment: 0,
      secure: v.input.secureTransaction,
    });
    expect(phpJson(body)).toBe(v.body!.replace("156.155.154.153", "0.0.0.0"));
  });

  it("requestDateTime is Istanbul wall time, round trip", () => {
    const ms = Date.parse("2024-04-18T17:15:36.000Z");
    expect(requestDateTime(ms)).toBe("2024-04-18T20:15:36.000");
    expect(fromRequestDateTime("2024-04-18T20:15:36.000")).toBe(ms);
    expect(fromRequestDateTime("2024-04-18 20:15:36")).toBeNull();
    expect(istanbulDay(Date.parse("2024-04-18T20:59:59.999Z"))).toBe(istanbulDay(ms));
    expect(istanbulDay(Date.parse("2024-04-18T21:00:00.000Z"))).toBe(istanbulDay(ms) + 1);
  });

  it("amounts are exact kuruş; a single charge is installCount 1", () => {
    expect(fromLira("10.91")).toBe(1091);
    expect(fromLira("1.5")).toBe(150);
    expect(fromLira("1,50")).toBeNull();
    expect(fromAmountNumber(10.91)).toBe(1091);
    expect(fromAmountNumber(-1)).toBeNull();
    expect(toInstallCount(0)).toBe(1);
    expect(toInstallCount(1)).toBe(1);
    expect(toInstallCount(6)).toBe(6);
  });

  it("the daily list's data is base64(gzip(JSON)); anything else is unreadable", () => {
    const doc = { txnDetailList: [{ orderId: "o1", txnCode: "1000", txnStatus: "Başarılı", amount: 12.34, installmentCount: 3 }] };
    const data = gzipSync(Buffer.from(JSON.stringify(doc))).toString("base64");
    expect(readDailyData(data)).toEqual([
      { orderId: "o1", txnCode: "1000", status: "Başarılı", amount: 1234, installCount: 3, txnDateTime: "" },
    ]);
    expect(readDailyData("bm90IGd6aXA=")).toBeNull();
  });
});
