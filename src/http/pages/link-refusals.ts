import type { Deps } from "../../deps";
import type { LinkFormProblem } from "../../domain/link-checkout/forms";
import { linkUrlOf } from "../../domain/link-checkout/paths";
import { pageStateOf } from "../../domain/link-checkout/state";
import { statusOf, type ErrorCode } from "../../errors";
import { toWebResponse } from "./handoff";
import { linkProblemPage } from "./link-views";
import type { LinkRow } from "../../store/rows";

// Buyer-facing words for what the link pages refuse (docs/checkout.md, Error pages / Payment link pages). Unlike the relay's pages,
// which send the buyer back to the shop, these offer the link's own page again when it is payable.

export const FORM_PROBLEMS: Record<LinkFormProblem, string> = {
  bin: "Kart numaranızın ilk 8 hanesini, yalnızca rakam olarak girin.",
  installment: "Lütfen bir taksit seçeneği seçin.",
  pan: "Kart numarası geçersiz. Lütfen kontrol edip yeniden deneyin.",
  expiry: "Son kullanma tarihi geçersiz. Lütfen kontrol edip yeniden deneyin.",
  cv2: "Güvenlik kodu geçersiz. Lütfen kontrol edip yeniden deneyin.",
};

const MESSAGES: Partial<Record<ErrorCode, string>> = {
  validation_error: "İstek okunamadı. Lütfen ödeme sayfasını yeniden açın.",
  request_too_large: "İstek çok büyük. Lütfen ödeme sayfasını yeniden açın.",
  rate_limited: "Çok fazla deneme yapıldı. Lütfen biraz sonra yeniden deneyin.",
  partner_not_active: "Satıcı şu anda ödeme kabul etmiyor. Lütfen satıcıyla iletişime geçin.",
  terminal_not_allowed: "Bu kartla bu ödeme alınamıyor. Başka bir kart deneyebilir ya da satıcıyla iletişime geçebilirsiniz.",
  installment_not_allowed: "Seçilen taksit bu kartla kullanılamıyor. Lütfen başka bir seçenek ya da kart deneyin.",
  payment_declined: "Kartınız banka tarafından reddedildi. Başka bir kart deneyebilirsiniz.",
  card_attempt_limit_exceeded: "Bu ödeme için kart deneme hakkı doldu. Ödeme sayfasından yeniden başlayabilirsiniz.",
  payment_ref_expired: "Ödemenin süresi doldu. Ödeme sayfasından yeniden başlayabilirsiniz.",
  payment_prepare_already_started: "Bu bağlantı için bir ödeme zaten sürüyor.",
  virtual_pos_inactive: "Ödeme şu anda alınamıyor. Lütfen daha sonra yeniden deneyin.",
  psp_inactive: "Ödeme şu anda alınamıyor. Lütfen daha sonra yeniden deneyin.",
};

/** Connection limits and card-type rejections say nothing more (docs/checkout.md, The handoff relay and the 3D step; docs/contract.md, Connection limits; docs/decisions.md, Readings of the contract). */
const GENERIC = "İşleminiz şu anda gerçekleştirilemiyor. Başka bir kart deneyebilir ya da daha sonra yeniden deneyebilirsiniz.";

export const messageOf = (code: ErrorCode): string => MESSAGES[code] ?? GENERIC;

/** A refused payment attempt or option: message, code unless generic, traceId, and the way back. */
export function linkRefusalPage(deps: Deps, link: LinkRow, code: ErrorCode, shown: boolean, traceId: string): Response {
  const page = linkProblemPage({
    title: "Ödeme tamamlanamadı",
    message: shown ? messageOf(code) : GENERIC,
    code: shown ? code : null,
    traceId,
    status: statusOf(code),
    retryUrl: pageStateOf(link.status) === "payable" ? linkUrlOf(deps.config.baseUrl, "page", link.token) : null,
    retryLabel: "Yeniden dene",
    nonce: deps.ids.nonce(),
  });
  return toWebResponse(page);
}
