import { toLira } from "../../../lira";
import { parseCallbackForm } from "../callback";
import { child, childText, parseXml } from "../xml";
import { PAYFLEX_SIM_ACCOUNT } from "./settings";
import type { PayflexSimState, SimTransaction } from "./state";

// The simulated Search service: credentials (9065), then the sale found by TransactionId, else by
// OrderId, with its cancel and refund flags; no item when there is none.

const XML = { "Content-Type": "text/xml; charset=utf-8" };

const info = (status: string, code: string, message: string) =>
  `<ResponseInfo><Status>${status}</Status><ResponseCode>${code}</ResponseCode><ResponseMessage>${message}</ResponseMessage><ResponseDateTime></ResponseDateTime><IsIdempotent>false</IsIdempotent></ResponseInfo>`;

const item = (t: SimTransaction): string =>
  `<TransactionSearchResultInfo><MerchantId>${PAYFLEX_SIM_ACCOUNT.merchantId}</MerchantId><TransactionType>${t.type}</TransactionType><TransactionId>${t.transactionId}</TransactionId><OrderId>${t.orderId}</OrderId><ResultCode>${t.resultCode}</ResultCode><ResponseMessage></ResponseMessage><AuthCode>${t.authCode}</AuthCode><Rrn>${t.rrn}</Rrn><CurrencyAmount>${toLira(t.amount)}</CurrencyAmount><AmountCode>949</AmountCode><IsReversed>false</IsReversed><IsCanceled>${t.canceled}</IsCanceled><IsRefunded>${t.refunded > 0}</IsRefunded><TotalRefundAmount>${toLira(t.refunded)}</TotalRefundAmount><PanMasked>${t.maskedPan}</PanMasked></TransactionSearchResultInfo>`;

export async function handleSearch(state: PayflexSimState, req: Request): Promise<Response> {
  const form = new Map(parseCallbackForm(new Uint8Array(await req.arrayBuffer())) ?? []);
  const doc = parseXml(form.get("prmstr") ?? "");
  const merchant = child(doc ?? undefined, "MerchantCriteria");
  const criteria = child(doc ?? undefined, "TransactionCriteria");
  const id = childText(criteria, "TransactionId") || childText(criteria, "OrderId") || "";
  if (state.nowMs() < state.searchDownUntilMs) {
    state.record({ kind: "Search", id, resultCode: null, fault: ".95" });
    return new Response("Internal Server Error", { status: 500 });
  }
  if (
    childText(merchant, "HostMerchantId") !== PAYFLEX_SIM_ACCOUNT.merchantId ||
    childText(merchant, "MerchantPassword") !== PAYFLEX_SIM_ACCOUNT.password
  ) {
    state.record({ kind: "Search", id, resultCode: "9065", fault: null });
    return new Response(`<SearchResponse>${info("Error", "9065", "Üye isyeri bulunamadi")}</SearchResponse>`, { headers: XML });
  }
  const sale = state.saleOf(id);
  state.record({ kind: "Search", id, resultCode: "0000", fault: null });
  const items = sale ? item(sale) : "";
  return new Response(
    `<SearchResponse>${info("Success", "0000", "Succeeded.")}<PageIndex>1</PageIndex><PageSize>10</PageSize><TotalItemCount>${sale ? 1 : 0}</TotalItemCount><TransactionSearchResultInfo>${items}</TransactionSearchResultInfo></SearchResponse>`,
    { headers: XML },
  );
}
