import { callerIp } from "../client-ip";
import type { H3Event } from "h3";
import type { Deps } from "../../deps";
import { parseCardForm, type CardProblem } from "../../domain/payments/card-form";
import { completeCallback } from "../../domain/payments/callback";
import type { HandoffResult } from "../../domain/payments/handoff-outcomes";
import { HANDOFF_PATHS } from "../../domain/payments/handoff-paths";
import { startHandoff } from "../../domain/payments/handoff-start";
import { isApiError, statusOf, type ErrorCode } from "../../errors";
import { invariant } from "../../invariant";
import { routeParams } from "../endpoint";
import type { PageRoute } from "../page";
import { readFormBody, readFormBodyBytes } from "../read";
import { autoSubmitForm, errorPage, renderPage, type PageResponse } from "../../html";

// The relay surface of docs/checkout.md, The handoff relay and the 3D step: the buyer's browser posts the card here, gets
// the bank's auto-submitting 3D form, and comes back from the ACS to the callback, which answers
// 303 to the partner's returnUrl. Every answer is a page (never JSON) under html.ts's strict CSP.

/** Short buyer-facing messages (pages are Turkish, lang="tr"); the code and traceId follow them. */
const MESSAGES: Partial<Record<ErrorCode, string>> = {
  validation_error: "İstek okunamadı. Lütfen alışverişe dönüp ödemeyi yeniden başlatın.",
  request_too_large: "İstek çok büyük. Lütfen alışverişe dönüp ödemeyi yeniden başlatın.",
  payment_ref_invalid: "Ödeme bulunamadı. Lütfen alışverişe dönüp ödemeyi yeniden başlatın.",
  payment_ref_expired: "Ödemenin süresi doldu. Lütfen alışverişe dönüp ödemeyi yeniden başlatın.",
  payment_prepare_already_started: "Bu ödeme için doğrulama zaten başlatıldı. Lütfen alışverişe dönüp ödemeyi yeniden başlatın.",
  card_attempt_limit_exceeded: "Bu ödeme için kart deneme hakkınız doldu. Lütfen alışverişe dönüp ödemeyi yeniden başlatın.",
  terminal_not_allowed: "Bu ödeme şu anda alınamıyor. Lütfen mağaza ile iletişime geçin.",
  virtual_pos_inactive: "Ödeme şu anda alınamıyor. Lütfen daha sonra tekrar deneyin.",
  psp_inactive: "Ödeme şu anda alınamıyor. Lütfen daha sonra tekrar deneyin.",
  installment_not_allowed: "Bu kartla seçilen taksit sayısı kullanılamıyor. Başka bir kart deneyebilirsiniz.",
  payment_declined: "Kartınız banka tarafından reddedildi. Başka bir kart deneyebilirsiniz.",
};

/** Connection limits and card-type rejections: no code, no reason (docs/checkout.md, The handoff relay and the 3D step; docs/contract.md, Connection limits). */
const GENERIC_MESSAGE = "İşleminiz şu anda gerçekleştirilemiyor. Başka bir kart deneyebilir ya da daha sonra tekrar deneyebilirsiniz.";

const CARD_PROBLEMS: Record<CardProblem, string> = {
  pan: "Kart numarası geçersiz. Lütfen kontrol edip yeniden deneyin.",
  expiry: "Son kullanma tarihi geçersiz. Lütfen kontrol edip yeniden deneyin.",
  cv2: "Güvenlik kodu geçersiz. Lütfen kontrol edip yeniden deneyin.",
};

const CALLBACK_REJECTED = "Doğrulama sonucu geçersiz ya da daha önce kullanılmış. Ödemenin durumu değişmedi.";

export const toWebResponse = (page: PageResponse): Response => new Response(page.body, { status: page.status, headers: page.headers });

/** The 303 of docs/checkout.md, The callback; nothing on the way may be cached or leak the referrer. */
export const seeOther = (location: string): Response =>
  new Response(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } });

/** docs/checkout.md, Error pages: message, code (unless generic) and traceId; never card data. */
export function handoffErrorPage(deps: Deps, code: ErrorCode, shown: boolean, traceId: string): Response {
  const message = shown ? (MESSAGES[code] ?? GENERIC_MESSAGE) : GENERIC_MESSAGE;
  return toWebResponse(errorPage({ code: shown ? code : null, message, traceId, nonce: deps.ids.nonce(), status: statusOf(code) }));
}

/**
 * The relay's answer (also for the link pages, which continue with `startHandoff`): the bank's form
 * auto-submitted to the ACS, whose origin is the ONLY form-action source, or the refusal page.
 */
export function renderHandoffResult(deps: Deps, result: HandoffResult, traceId: string): Response {
  if (result.kind === "refused") {
    deps.log.info("handoff refused", { code: result.code, traceId });
    return handoffErrorPage(deps, result.code, result.shown, traceId);
  }
  const bankOrigin = result.gateOrigin;
  invariant(new URL(result.action).origin === bankOrigin, "the bank's 3D form posts to the bank's own origin");
  const nonce = deps.ids.nonce();
  const body = autoSubmitForm({ action: result.action, fields: result.fields, nonce, label: "Bankaya devam et" });
  return toWebResponse(renderPage({ title: "Bankaya yönlendiriliyorsunuz", body, nonce, formActions: [bankOrigin] }));
}

/** A form body, or the error page for a body that is not one (wrong type, too large). */
async function readForm(deps: Deps, event: H3Event, traceId: string): Promise<Record<string, string> | Response> {
  try {
    return await readFormBody(event.req);
  } catch (error) {
    if (!isApiError(error)) throw error;
    return handoffErrorPage(deps, error.code, true, traceId);
  }
}

/** POST /handoff (docs/checkout.md, The handoff relay and the 3D step / Card data / Checks in order). */
async function postHandoff(deps: Deps, event: H3Event, traceId: string): Promise<Response> {
  const form = await readForm(deps, event, traceId);
  if (form instanceof Response) return form;
  const parsed = parseCardForm(form, deps.clock.nowMs());
  if (!parsed.ok) {
    // docs/checkout.md, Card data: bad card data is not counted and re-renders nothing of what was typed.
    const page = errorPage({
      code: "validation_error",
      message: CARD_PROBLEMS[parsed.problem],
      traceId,
      nonce: deps.ids.nonce(),
      status: 400,
    });
    return toWebResponse(page);
  }
  const buyerIp = callerIp(event, deps.config.trustProxy);
  return renderHandoffResult(deps, await startHandoff(deps, { ...parsed.value, buyerIp }), traceId);
}

/** POST /handoff/callback/:attemptId (docs/checkout.md, The callback; docs/banks.md): parsed and raw, as banks sign the bytes. */
async function postCallback(deps: Deps, event: H3Event, traceId: string): Promise<Response> {
  let callback: { form: Record<string, string>; raw: Uint8Array };
  try {
    callback = await readFormBodyBytes(event.req);
  } catch (error) {
    if (!isApiError(error)) throw error;
    return handoffErrorPage(deps, error.code, true, traceId);
  }
  const outcome = await completeCallback(deps, routeParams(event).attemptId ?? "", callback);
  if (outcome.kind === "redirect") return seeOther(outcome.location);
  deps.log.warn("handoff callback rejected", { traceId });
  return toWebResponse(errorPage({ code: null, message: CALLBACK_REJECTED, traceId, nonce: deps.ids.nonce(), status: 400 }));
}

export function handoffPages(deps: Deps): PageRoute[] {
  return [
    { method: "POST", path: HANDOFF_PATHS.start, handle: (event, traceId) => postHandoff(deps, event, traceId) },
    // The bank's signed answer to a finished 3D step: refusing it would strand the buyer's attempt.
    {
      method: "POST",
      path: `${HANDOFF_PATHS.callback}/:attemptId`,
      pagesBudget: "exempt",
      handle: (event, traceId) => postCallback(deps, event, traceId),
    },
  ];
}
