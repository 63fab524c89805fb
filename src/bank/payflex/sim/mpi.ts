import { toSimProfile } from "../../test-cards";
import { brandOf } from "../requests";
import { fromLira } from "../answers";
import { parseCallbackForm } from "../callback";
import { PAYFLEX_SIM_ACCOUNT, PAYFLEX_SIM_PATHS } from "./settings";
import { type PayflexSimState, randomToken } from "./state";

// The simulated MPI: the enrollment (urlencoded fields in, IPaySecure out) checked field by field
// as docs/banks-payflex.md describes, and a record of it that the ACS, the TermUrl and the VPOS use.

const XML = { "Content-Type": "text/xml; charset=utf-8" };

const veres = (status: string, inner: string, code: string, message = ""): Response =>
  new Response(
    `<?xml version="1.0" encoding="utf-8"?><IPaySecure><Message ID="${randomToken(20)}"><VERes><Version>1.0.2</Version><Status>${status}</Status>${inner}</VERes></Message><MessageErrorCode>${code}</MessageErrorCode>${message ? `<ErrorMessage>${message}</ErrorMessage>` : ""}</IPaySecure>`,
    { headers: XML },
  );

const escapeXml = (s: string): string => s.replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c] as string);

/** What is wrong with an enrollment's fields (a format error), or null. */
function formatError(f: ReadonlyMap<string, string>): string | null {
  const get = (name: string) => f.get(name) ?? "";
  if (fromLira(get("PurchaseAmount")) === null || !/^\d+\.\d\d$/.test(get("PurchaseAmount"))) return "PurchaseAmount";
  if (get("Currency") !== "949") return "Currency";
  if (!/^\d{12,19}$/.test(get("Pan"))) return "Pan";
  if (!/^\d{4}$/.test(get("ExpiryDate"))) return "ExpiryDate";
  if (brandOf(get("Pan")) !== get("BrandName")) return "BrandName";
  const count = f.get("InstallmentCount");
  if (count !== undefined && !/^([2-9]|1[0-2])$/.test(count)) return "InstallmentCount";
  if (!/^https?:\/\//.test(get("SuccessUrl")) || !/^https?:\/\//.test(get("FailureUrl"))) return "SuccessUrl";
  if (get("VerifyEnrollmentRequestId") === "") return "VerifyEnrollmentRequestId";
  return null;
}

export async function handleEnrollment(state: PayflexSimState, req: Request, baseUrl: string): Promise<Response> {
  const fields = parseCallbackForm(new Uint8Array(await req.arrayBuffer()));
  const f = new Map(fields ?? []);
  const id = f.get("VerifyEnrollmentRequestId") ?? "";
  const done = (status: string, code: string) => state.record({ kind: "enrollment", id, resultCode: `${status}/${code}`, fault: null });
  if (f.get("MerchantId") !== PAYFLEX_SIM_ACCOUNT.merchantId || f.get("MerchantPassword") !== PAYFLEX_SIM_ACCOUNT.password) {
    done("E", "2005");
    return veres("E", "", "2005", "Merchant cannot be found for this bank");
  }
  const bad = formatError(f);
  if (bad !== null) {
    done("E", "1003");
    return veres("E", "", "1003", `Invalid ${bad}`);
  }
  if (state.enrollments.has(id)) {
    done("E", "2023");
    return veres("E", "", "2023", "Verify enrollment request Id already exists for this merchant");
  }
  const pan = f.get("Pan") ?? "";
  if (toSimProfile(pan) === "decline_at_3d") {
    done("N", "20");
    return veres("N", "", "20", "Kart 3-D Secure programına dâhil değil");
  }
  const md = randomToken(20);
  const record = {
    id,
    merchantId: PAYFLEX_SIM_ACCOUNT.merchantId,
    pan,
    expiry: f.get("ExpiryDate") ?? "",
    amount: fromLira(f.get("PurchaseAmount") ?? "") ?? 0,
    installment: Number(f.get("InstallmentCount") ?? "0"),
    successUrl: f.get("SuccessUrl") ?? "",
    failureUrl: f.get("FailureUrl") ?? "",
    paReq: Buffer.from(`${id}:${md}`).toString("base64"),
    md,
    xid: randomToken(10),
    state: "enrolled" as const,
    eci: "",
    cavv: "",
    usedBy: null,
  };
  state.enrollments.set(id, record);
  state.byMd.set(md, record);
  done("Y", "200");
  const inner = `<PaReq>${record.paReq}</PaReq><ACSUrl>${escapeXml(baseUrl + PAYFLEX_SIM_PATHS.acs)}</ACSUrl><TermUrl>${escapeXml(
    baseUrl + PAYFLEX_SIM_PATHS.termUrl,
  )}</TermUrl><MD>${md}</MD><ACTUALBRAND>${pan.startsWith("4") ? "Visa" : "Master"}</ACTUALBRAND>`;
  return veres("Y", inner, "200");
}

/** The callback the MPI makes the browser post to the merchant, in the fixtures' field order. */
export function callbackFields(e: {
  merchantId: string;
  pan: string;
  expiry: string;
  amount: number;
  installment: number;
  id: string;
  xid: string;
  status: string;
  eci: string;
  cavv: string;
}): Array<[string, string]> {
  const failed = e.status !== "Y";
  return [
    ["MerchantId", e.merchantId],
    ["Pan", e.pan],
    ["Expiry", e.expiry],
    ["PurchAmount", String(e.amount)],
    ["PurchCurrency", "949"],
    ["VerifyEnrollmentRequestId", e.id],
    ["Xid", e.xid],
    ["SessionInfo", ""],
    ["Status", e.status],
    ["Cavv", e.cavv],
    ["Eci", e.eci],
    ["ExpSign", ""],
    ["InstallmentCount", e.installment > 1 ? String(e.installment) : ""],
    ["SubMerchantNo", ""],
    ["SubMerchantName", ""],
    ["SubMerchantNumber", ""],
    ["ErrorCode", failed ? "400" : ""],
    ["ErrorMessage", failed ? "3D Şifre doğrulaması yapılamadı." : ""],
  ];
}
