import type { PageResponse } from "../../../html";
import { parseFormBytes } from "../../form-bytes";
import { asciiBytes, ver3Matches } from "../hash";
import { decodeIso88599 } from "../../iso-8859-9";
import { toSimProfile } from "../../test-cards";
import { fromLira as liraToKurus } from "../amounts";
import { trxDate } from "./clock";
import { decideThreeD, type GatePayment, gateCallbackFields } from "./gate-callback";
import { faultOf } from "./faults";
import { callbackPage, gateErrorPage, gateLostPage } from "./gate-page";
import { authorise } from "./operations";
import { newRnd } from "./random";
import type { EstSimState } from "./state";

// POST /fim/est3Dgate: the merchant's page posts the card here. Checks the request, runs the
// simulated 3D authentication, remembers it (never the card), and answers a page that posts the
// signed callback to okUrl or failUrl. 3d_pay also authorises the payment on the spot.

const REQUIRED = [
  "clientid",
  "storetype",
  "amount",
  "oid",
  "okUrl",
  "failUrl",
  "rnd",
  "currency",
  "TranType",
  "hashAlgorithm",
  "pan",
  "Ecom_Payment_Card_ExpDate_Month",
  "Ecom_Payment_Card_ExpDate_Year",
  "cv2",
  "hash",
] as const;

const isHttpUrl = (s: string): boolean => {
  if (!URL.canParse(s)) return false;
  const protocol = new URL(s).protocol;
  return protocol === "http:" || protocol === "https:";
};

const toResponse = (page: PageResponse): Response => new Response(page.body, { status: page.status, headers: page.headers });

export async function handleGate(state: EstSimState, req: Request, nonce: string): Promise<Response> {
  const posted = parseFormBytes(new Uint8Array(await req.arrayBuffer()));
  const value = (name: string): string | undefined => {
    const field = posted.find(([n]) => n.toLowerCase() === name.toLowerCase());
    return field ? decodeIso88599(field[1]) : undefined;
  };
  const fail = (reason: string) => toResponse(gateErrorPage(reason, nonce));

  const clientId = value("clientid") ?? "";
  const account = state.account(clientId);
  if (!account) return fail("Geçersiz üye işyeri numarası (clientid).");
  const missing = REQUIRED.find((name) => !value(name));
  if (missing) return fail(`Eksik alan: ${missing}`);
  if (value("hashAlgorithm") !== "ver3") return fail("Desteklenmeyen hashAlgorithm: yalnızca ver3.");
  if (!ver3Matches(posted, asciiBytes(account.storeKey), value("hash") ?? "")) return fail("Hash değeri hatalı.");
  const storetype = value("storetype");
  if (storetype !== "3d" && storetype !== "3d_pay") return fail("Desteklenmeyen storetype.");
  const amountKurus = liraToKurus(value("amount") ?? "");
  if (amountKurus === null) return fail("Geçersiz tutar (amount).");
  if (!isHttpUrl(value("okUrl") ?? "") || !isHttpUrl(value("failUrl") ?? "")) return fail("Geçersiz okUrl veya failUrl.");

  const pan = value("pan") ?? "";
  const oid = value("oid") ?? "";
  const threeD = decideThreeD(pan, clientId);
  const auth = {
    md: threeD.md,
    xid: threeD.xid,
    clientId,
    oid,
    amountKurus,
    taksit: value("taksit") ?? "",
    profile: toSimProfile(pan),
    mdStatus: threeD.mdStatus ?? "",
    used: false,
  };
  if (threeD.mdStatus !== null) state.remember(auth);

  let payment: GatePayment | null = null;
  if (storetype === "3d_pay" && threeD.mdStatus === "1") {
    const o = authorise(state, { clientId, oid, totalKurus: amountKurus, threeD: auth, xid: "" });
    o.commit();
    if (faultOf(amountKurus) === ".96" && o.procReturnCode === "00") return toResponse(gateLostPage(nonce));
    payment = {
      response: o.response,
      procReturnCode: o.procReturnCode,
      authCode: o.authCode,
      hostRefNum: o.hostRefNum,
      transId: o.transId,
      returnOid: oid,
      errMsg: o.errMsg,
      trxDate: trxDate(state.nowMs()),
    };
  }
  const callback = gateCallbackFields({ posted, storeKey: account.storeKey, threeD, payment, rnd: newRnd() });
  return toResponse(callbackPage(callback, nonce));
}
