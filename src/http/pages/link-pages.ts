import { callerIp } from "../client-ip";
import type { H3Event } from "h3";
import type { Deps } from "../../deps";
import { toRedirectResultUrl } from "../../domain/checks/redirect-url";
import type { HandoffRefusal } from "../../domain/payments/handoff-outcomes";
import { parseBin, parseInstallment, parseLinkPayForm } from "../../domain/link-checkout/forms";
import { currentLink, openLink } from "../../domain/link-checkout/open";
import { partnerOf, quoteLinkOptions } from "../../domain/link-checkout/options";
import { LINK_PAGE_PATHS, linkUrlOf } from "../../domain/link-checkout/paths";
import { payLink } from "../../domain/link-checkout/pay";
import { linkResultOf, resultLocationOf } from "../../domain/link-checkout/result";
import { pageStateOf } from "../../domain/link-checkout/state";
import { isApiError, statusOf, type ErrorCode } from "../../errors";
import { routeParams } from "../endpoint";
import type { PageRoute } from "../page";
import { readFormBody } from "../read";
import { renderHandoffResult, seeOther, toWebResponse } from "./handoff";
import { linkCardPage, linkOptionsPage, linkPayPage, type LinkFormContext } from "./link-forms";
import { postLinkOptions } from "./link-options";
import { FORM_PROBLEMS, linkRefusalPage, messageOf } from "./link-refusals";
import { linkProblemPage, linkStatePage, linkSuccessPage, unknownLinkPage } from "./link-views";
import type { LinkRow } from "../../store/rows";

// The hosted payment-link pages (docs/contract.md, Payment links / Link states / redirectUrl; docs/checkout.md, Payment link pages; docs/decisions.md, Readings of the contract): thin handlers from a
// request to one domain call (domain/link-checkout) to a page. No API key: the token in the path
// is the secret. Every answer is HTML under a strict nonce CSP, except the options JSON.

const tokenOf = (event: H3Event): string => routeParams(event).token ?? "";

async function contextOf(deps: Deps, link: LinkRow): Promise<LinkFormContext> {
  return { link, merchant: (await partnerOf(deps.store.q, link)).name, baseUrl: deps.config.baseUrl, nonce: deps.ids.nonce() };
}

/** The page for a link that cannot be paid now, or null when it can. */
async function notPayablePage(deps: Deps, link: LinkRow, posted: boolean): Promise<Response | null> {
  const state = pageStateOf(link.status);
  if (state === "payable") return null;
  const merchant = (await partnerOf(deps.store.q, link)).name;
  return toWebResponse(linkStatePage({ link, merchant, state, baseUrl: deps.config.baseUrl, nonce: deps.ids.nonce(), posted }));
}

/** GET /l/{token}: opens the link (docs/checkout.md, Payment link pages) and shows what its state allows. */
async function getLinkPage(deps: Deps, event: H3Event, traceId: string): Promise<Response> {
  const link = await openLink(deps, tokenOf(event));
  if (!link) return toWebResponse(unknownLinkPage(deps.ids.nonce(), traceId));
  return (await notPayablePage(deps, link, false)) ?? toWebResponse(linkPayPage(await contextOf(deps, link)));
}

type Posted = { link: LinkRow; form: Record<string, string> };

/** The common start of every form POST: a form body, a known link that can be paid now. */
async function readPayablePost(deps: Deps, event: H3Event, traceId: string): Promise<Posted | Response> {
  let form: Record<string, string>;
  try {
    form = await readFormBody(event.req);
  } catch (error) {
    if (!isApiError(error)) throw error;
    return problem(deps, null, error.code, traceId, "İstek okunamadı. Lütfen ödeme sayfasını yeniden açın.");
  }
  const link = await currentLink(deps, tokenOf(event));
  if (!link) return toWebResponse(unknownLinkPage(deps.ids.nonce(), traceId));
  return (await notPayablePage(deps, link, true)) ?? { link, form };
}

function problem(deps: Deps, link: LinkRow | null, code: ErrorCode, traceId: string, message = messageOf(code)): Response {
  const page = linkProblemPage({
    title: "İşlem tamamlanamadı",
    message,
    code,
    traceId,
    status: statusOf(code),
    retryUrl: link === null ? null : linkUrlOf(deps.config.baseUrl, "page", link.token),
    nonce: deps.ids.nonce(),
  });
  return toWebResponse(page);
}

/** Step 1 -> 2 without JavaScript: the options for the first 8 digits (on `pages.ip`, docs/decisions.md, Hardening). */
async function postInstallmentsStep(deps: Deps, event: H3Event, traceId: string): Promise<Response> {
  const posted = await readPayablePost(deps, event, traceId);
  if (posted instanceof Response) return posted;
  const { link, form } = posted;
  const bin = parseBin(form.bin);
  if (bin === null) return toWebResponse(linkPayPage(await contextOf(deps, link), FORM_PROBLEMS.bin));
  try {
    const quote = await quoteLinkOptions(deps.store.q, link, bin);
    if (quote.options.length === 0) return linkRefusalPage(deps, link, "virtual_pos_card_type_not_supported", false, traceId);
    const card = { cardBank: quote.card?.bank ?? null, cardBrand: quote.card?.brand ?? null };
    return toWebResponse(linkOptionsPage(await contextOf(deps, link), bin, card, quote.options));
  } catch (error) {
    if (!isApiError(error)) throw error;
    return problem(deps, link, error.code, traceId);
  }
}

/**
 * Step 2 -> 3 without JavaScript: the card form for the chosen count. It re-reads the option only
 * to show its total; the pay step checks it again.
 */
async function postCardStep(deps: Deps, event: H3Event, traceId: string): Promise<Response> {
  const posted = await readPayablePost(deps, event, traceId);
  if (posted instanceof Response) return posted;
  const { link, form } = posted;
  const bin = parseBin(form.bin);
  const count = parseInstallment(form.installment);
  if (bin === null || count === null)
    return problem(deps, link, "validation_error", traceId, FORM_PROBLEMS[bin === null ? "bin" : "installment"]);
  try {
    const option = (await quoteLinkOptions(deps.store.q, link, bin)).options.find((o) => o.installmentCount === count);
    if (!option) return problem(deps, link, "installment_not_allowed", traceId);
    return toWebResponse(linkCardPage(await contextOf(deps, link), bin, option));
  } catch (error) {
    if (!isApiError(error)) throw error;
    return problem(deps, link, error.code, traceId);
  }
}

/** POST /l/{token}/pay: a link payment for the chosen option, then the relay's 3D start (docs/checkout.md, Payment link pages). */
async function postPay(deps: Deps, event: H3Event, traceId: string): Promise<Response> {
  const posted = await readPayablePost(deps, event, traceId);
  if (posted instanceof Response) return posted;
  const parsed = parseLinkPayForm(posted.form, deps.clock.nowMs());
  // docs/checkout.md, Card data: bad card data is a 400 that repeats nothing typed; no payment is made.
  if (!parsed.ok) return problem(deps, posted.link, "validation_error", traceId, FORM_PROBLEMS[parsed.problem]);
  const buyerIp = callerIp(event, deps.config.trustProxy);
  const outcome = await payLink(deps, posted.link.token, { ...parsed.value, card: { ...parsed.value.card, buyerIp } });
  switch (outcome.kind) {
    case "unknown":
      return toWebResponse(unknownLinkPage(deps.ids.nonce(), traceId));
    case "not-payable":
      return (await notPayablePage(deps, outcome.link, true)) ?? problem(deps, outcome.link, "payment_prepare_already_started", traceId);
    case "exhausted":
      return linkAttemptsUsedUpPage(deps, traceId);
    case "refused":
      return linkRefusalPage(deps, outcome.link, outcome.code, outcome.code !== "virtual_pos_card_type_not_supported", traceId);
    case "attempted":
      if (outcome.result.kind === "bank-form") return renderHandoffResult(deps, outcome.result, traceId);
      return failedAttempt(deps, outcome.link, outcome.result, traceId);
  }
}

/** docs/decisions.md, Hardening: the link took all the card attempts it ever will; only the partner can help now. */
function linkAttemptsUsedUpPage(deps: Deps, traceId: string): Response {
  const page = linkProblemPage({
    title: "Ödeme tamamlanamadı",
    message: "Bu ödeme bağlantısı için kart deneme hakkı doldu. Lütfen satıcıyla iletişime geçin.",
    code: "card_attempt_limit_exceeded",
    traceId,
    status: statusOf("card_attempt_limit_exceeded"),
    retryUrl: null,
    nonce: deps.ids.nonce(),
  });
  return toWebResponse(page);
}

/**
 * An attempt the relay refused (declined at 3D start, limits, card type...) is a failed attempt
 * of docs/contract.md, redirectUrl: 303 to `{redirectUrl}/payment/failure`, or the hosted failure page.
 */
function failedAttempt(deps: Deps, link: LinkRow, refusal: HandoffRefusal, traceId: string): Response {
  deps.log.info("link payment attempt refused", { linkId: link.id, code: refusal.code, traceId });
  if (link.redirectUrl !== null) return seeOther(toRedirectResultUrl(link.redirectUrl, "failure"));
  return linkRefusalPage(deps, link, refusal.code, refusal.shown, traceId);
}

/** GET /l/{token}/result: where the relay's callback sends the buyer (docs/contract.md, redirectUrl). */
async function getResult(deps: Deps, event: H3Event, traceId: string): Promise<Response> {
  const result = await linkResultOf(deps.store.q, tokenOf(event), event.url.searchParams.get("paymentCode"), deps.clock.nowMs());
  if (result.kind === "unknown") return toWebResponse(unknownLinkPage(deps.ids.nonce(), traceId));
  if (result.kind === "unsettled") return seeOther(linkUrlOf(deps.config.baseUrl, "page", result.link.token));
  if (result.kind === "stale") {
    // docs/decisions.md, Hardening: the link's own page as it stands now (expired first when due); a payable link's is its pay page.
    const link = (await currentLink(deps, result.link.token)) ?? result.link;
    return (await notPayablePage(deps, link, false)) ?? seeOther(linkUrlOf(deps.config.baseUrl, "page", link.token));
  }
  const location = resultLocationOf(result.link, result.outcome);
  if (location !== null) return seeOther(location);
  const merchant = (await partnerOf(deps.store.q, result.link)).name;
  if (result.outcome === "success") return toWebResponse(linkSuccessPage(result.link, result.payment, merchant, deps.ids.nonce()));
  const page = linkProblemPage({
    title: "Ödeme tamamlanamadı",
    message: "Ödeme banka tarafından onaylanmadı. Yeniden deneyebilir ya da başka bir kart kullanabilirsiniz.",
    code: null,
    traceId,
    status: 200,
    retryUrl: pageStateOf(result.link.status) === "payable" ? linkUrlOf(deps.config.baseUrl, "page", result.link.token) : null,
    retryLabel: "Yeniden dene",
    nonce: deps.ids.nonce(),
  });
  return toWebResponse(page);
}

export function linkPages(deps: Deps): PageRoute[] {
  const P = LINK_PAGE_PATHS;
  return [
    { method: "GET", path: P.page, handle: (event, traceId) => getLinkPage(deps, event, traceId) },
    {
      method: "POST",
      path: P.options,
      pagesBudget: "json",
      handle: (event, traceId) => postLinkOptions(deps, event, tokenOf(event), traceId),
    },
    { method: "POST", path: P.installments, handle: (event, traceId) => postInstallmentsStep(deps, event, traceId) },
    { method: "POST", path: P.card, handle: (event, traceId) => postCardStep(deps, event, traceId) },
    { method: "POST", path: P.pay, handle: (event, traceId) => postPay(deps, event, traceId) },
    { method: "GET", path: P.result, handle: (event, traceId) => getResult(deps, event, traceId) },
  ];
}
