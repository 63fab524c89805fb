import { describe, expect, it } from "vitest";
import { saleOutcome } from "../../../../src/bank/payflex/adapter";
import { readVposResponse } from "../../../../src/bank/payflex/answers";
import { heldCards, takeCard, verifyPayflexCallback } from "../../../../src/bank/payflex/callback";
import type { PayflexConfig } from "../../../../src/bank/payflex/config";
import { brandOf } from "../../../../src/bank/payflex/requests";
import { payflexSimulatorRoutes } from "../../../../src/bank/payflex/sim/routes";
import { PAYFLEX_SIM_ACCOUNT, PAYFLEX_SIM_PATHS } from "../../../../src/bank/payflex/sim/settings";
import { encodeForm, prmstrBody } from "../../../../src/bank/payflex/wire";
import { writeVposRequest } from "../../../../src/bank/payflex/xml";

// Issue 35: the adapter's own rules without a server: the callback's binding to the attempt, the
// reading of a Sale answer, the brand, and the simulator's refusals of a Sale that does not match
// the MPI's record.

const config: PayflexConfig = {
  mpiUrl: "https://mpi.test",
  vposUrl: "https://vpos.test",
  searchUrl: "https://search.test",
  merchantId: "000100000013506",
  password: "pw",
  terminalNo: "VP000579",
  merchantType: 0,
  subMerchantId: null,
  timeoutMs: 1000,
};

const ATTEMPT = "att-abcdefghij0123456789";
const context = { attemptId: ATTEMPT, amount: 101, installment: 1, maskedPan: "493846******4205", nowMs: 1_000 };
const callback = (over: Record<string, string> = {}) =>
  new TextEncoder().encode(
    encodeForm(
      Object.entries({
        MerchantId: "000100000013506",
        Pan: "4938460158754205",
        Expiry: "2411",
        PurchAmount: "101",
        PurchCurrency: "949",
        VerifyEnrollmentRequestId: ATTEMPT,
        Xid: "ondg8d9t5besgt88sk8h",
        Status: "Y",
        Cavv: "ABIBCBgAAAEnAAABAQAAAAAAAAA=",
        Eci: "05",
        InstallmentCount: "",
        ...over,
      }),
    ),
  );

describe("issue 35: the callback bound to the attempt", () => {
  it("the genuine one holds the card for the one Sale; the profile carries no card data", () => {
    const result = verifyPayflexCallback(config, callback(), context);
    expect(result).toMatchObject({ ok: true, authenticated: true });
    expect(result.ok && result.bankProfile).not.toContain("4938460158754205");
    expect(result.ok && result.bankProfile).not.toContain("2411");
    expect(takeCard(ATTEMPT)).toEqual({ pan: "4938460158754205", expiry: "2411" });
    expect(heldCards()).toBe(0);
    // After the Sale took the card, a callback for the attempt is refused.
    expect(verifyPayflexCallback(config, callback(), context)).toMatchObject({ ok: false });
  });

  it.each([
    ["without the attempt's card", {}, { maskedPan: null }],
    ["InstallmentCount 3 on a single charge", { InstallmentCount: "3" }, {}],
    ["an authenticated callback without Cavv", { Cavv: "" }, {}],
    ["an authenticated callback with a bad Expiry", { Expiry: "hj" }, {}],
  ])("refused: %s", (_name, over, ctx) => {
    const id = `att-refused${Object.keys(over).join("")}${Object.keys(ctx).join("")}`;
    const posted = callback({ VerifyEnrollmentRequestId: id, ...over });
    expect(verifyPayflexCallback(config, posted, { ...context, attemptId: id, ...ctx })).toMatchObject({ ok: false });
    // The same callback with the attempt's facts right is accepted: only the one difference refuses it.
    const fixed = callback({ VerifyEnrollmentRequestId: `${id}ok` });
    expect(verifyPayflexCallback(config, fixed, { ...context, attemptId: `${id}ok` })).toMatchObject({ ok: true });
    takeCard(`${id}ok`);
  });

  it("InstallmentCount 0 is a single charge; a count matches an installment attempt", () => {
    const id = "att-00000000000000000002";
    expect(
      verifyPayflexCallback(config, callback({ InstallmentCount: "0", VerifyEnrollmentRequestId: id, Status: "N" }), {
        ...context,
        attemptId: id,
      }),
    ).toEqual({
      ok: true,
      authenticated: false,
      bankProfile: "",
    });
    expect(
      verifyPayflexCallback(config, callback({ InstallmentCount: "3", VerifyEnrollmentRequestId: id, Status: "A" }), {
        ...context,
        attemptId: id,
        installment: 3,
      }),
    ).toMatchObject({ ok: true, authenticated: false });
  });
});

describe("issue 35: a Sale answer", () => {
  const input = { attemptId: ATTEMPT, amount: 10_000, installment: 1, bankProfile: "" };
  const answer = (fields: Record<string, string>) =>
    readVposResponse(writeVposRequest(Object.entries(fields)).replaceAll("VposRequest", "VposResponse"));

  it("0000 with the echoes of this Sale is captured; without echoes too", () => {
    expect(
      saleOutcome(
        answer({
          TransactionType: "Sale",
          TransactionId: ATTEMPT,
          OrderId: ATTEMPT,
          ResultCode: "0000",
          AuthCode: "822641",
          CurrencyAmount: "100.00",
          CurrencyCode: "949",
        }),
        input,
      ),
    ).toEqual({
      approved: true,
      authCode: "822641",
      bankReference: ATTEMPT,
    });
    expect(saleOutcome(answer({ ResultCode: "0000" }), input)).toMatchObject({ approved: true });
  });

  it.each([
    ["another order", { OrderId: "att-other" }],
    ["another amount", { CurrencyAmount: "1.00" }],
    ["another currency", { CurrencyCode: "840" }],
    ["another type", { TransactionType: "Refund" }],
  ])("0000 for %s is unknown, not captured", (_name, echo) => {
    expect(saleOutcome(answer({ ResultCode: "0000", ...echo }), input)).toMatchObject({ approved: null });
  });

  it("another code is declined (0051 as insufficient funds); no answer is unknown", () => {
    expect(saleOutcome(answer({ ResultCode: "0051", ResultDetail: "Yetersiz" }), input)).toMatchObject({
      approved: false,
      reason: "insufficient_funds",
      procReturnCode: "0051",
    });
    expect(saleOutcome(answer({ ResultCode: "1117" }), input)).toMatchObject({ approved: false, reason: "declined" });
    expect(saleOutcome(null, input)).toMatchObject({ approved: null });
  });

  it.each([
    ["4938460158754205", "100"],
    ["5400006600000006", "200"],
    ["2221000000000009", "200"],
    ["9792000000000001", "300"],
    ["6500000000000002", "300"],
    ["374245455400126", "400"],
    ["6011000000000004", null],
    ["3528000000000007", null],
  ])("brand of %s is %s", (pan, brand) => {
    expect(brandOf(pan)).toBe(brand);
  });
});

describe("issue 35: the simulated VPOS refuses what the bank refuses", () => {
  const routes = payflexSimulatorRoutes({
    nowMs: () => 1_700_000_000_000,
    nonce: () => "bm9uY2Utbm9uY2Utbm9uY2U",
    gateway: () => {
      throw new Error("not used");
    },
  });
  const vpos = routes.find((r) => r.path === PAYFLEX_SIM_PATHS.vpos)!;
  const send = async (body: string) => {
    const url = new URL(`https://bank.test${PAYFLEX_SIM_PATHS.vpos}`);
    const res = (await vpos.handle({ req: new Request(url, { method: "POST", body }), url, form: null, traceId: "t" })) as Response;
    return res.text();
  };
  const sale = (over: Record<string, string> = {}) =>
    prmstrBody(
      writeVposRequest(
        Object.entries({
          MerchantId: PAYFLEX_SIM_ACCOUNT.merchantId,
          Password: PAYFLEX_SIM_ACCOUNT.password,
          TerminalNo: PAYFLEX_SIM_ACCOUNT.terminalNo,
          TransactionType: "Sale",
          TransactionId: "att-nothing-enrolled0001",
          CurrencyAmount: "100.00",
          CurrencyCode: "949",
          ECI: "05",
          CAVV: "x",
          MpiTransactionId: "att-nothing-enrolled0001",
          ...over,
        }),
      ),
    );

  it("raw XML without prmstr is the 'Mesaj Boş Geldi' answer; wrong credentials 9039; no MPI record 1115", async () => {
    expect(await send("<VposRequest></VposRequest>")).toContain("prmstr");
    expect(await send(sale({ Password: "wrong" }))).toContain("<ResultCode>9039</ResultCode>");
    expect(await send(sale())).toContain("<ResultCode>1115</ResultCode>");
  });
});
