import { errorPage, html, renderPage, toHttpUrl, type PageResponse } from "../../html";
import type { Sensitive } from "../../sensitive";
import { issueCallbackToken, readAcsRequest, type AcsRequest } from "./acs-claims";
import { formatTry, maskPan } from "./format";
import { SIM_OTP } from "./sim-limits";

export interface AcsPageOptions {
  nonce: string;
  nowMs: number;
  /** Shown on the error page when the request is not genuine; null on pages without one. */
  traceId?: string | null;
}

/** Names of the fields the ACS form posts to the relay's callback URL. */
export const ACS_CALLBACK_FIELDS = { token: "token", otp: "otp", action: "action" } as const;

const toInstallmentText = (count: number): string => (count > 1 ? `${count} taksit` : "Tek çekim");

// Page text is Turkish like every buyer page (lang="tr"); the hint names the test code because
// this ACS only ever runs in the sandbox.
const renderAcsForm = (request: AcsRequest, maskedPan: string | null, token: string) => html`
<p class="muted">Demo Bank · 3D Secure doğrulaması (simülasyon)</p>
<h1>Ödemenizi onaylayın</h1>
<dl>
<dt>Tutar</dt><dd>${formatTry(request.amount)}</dd>
<dt>Ödeme</dt><dd>${toInstallmentText(request.installment)}</dd>
<dt>Kart</dt><dd>${maskedPan ?? "—"}</dd>
</dl>
<form method="post" action="${toHttpUrl(request.callbackUrl).href}">
<input type="hidden" name="${ACS_CALLBACK_FIELDS.token}" value="${token}">
<label for="otp">Tek kullanımlık şifre</label>
<input id="otp" name="${ACS_CALLBACK_FIELDS.otp}" type="text" inputmode="numeric" autocomplete="one-time-code"
 maxlength="12" required aria-describedby="otp-hint">
<p id="otp-hint" class="muted">Test ortamı: ${SIM_OTP} doğrular, başka her kod doğrulamayı başarısız kılar.</p>
<div class="actions">
<button type="submit" name="${ACS_CALLBACK_FIELDS.action}" value="confirm">Onayla</button>
<button type="submit" name="${ACS_CALLBACK_FIELDS.action}" value="cancel" class="secondary" formnovalidate>Vazgeç</button>
</div>
</form>`;

/**
 * The simulated bank's ACS page (docs/checkout.md, The bank's 3D page), rendered from the form the relay's page posted.
 * Amount, attempt and callback come from the signed request, never from the browser's other
 * fields; the posted PAN is used only to show it masked, and the CVV and expiry are ignored.
 * The page's form posts to the callback, whose 303 goes to the return origin, so form-action
 * allows both (Chromium checks redirects after a form post, docs/checkout.md).
 */
export const renderAcsPage = (
  secret: Sensitive<string>,
  fields: Readonly<Record<string, string>>,
  options: AcsPageOptions,
): PageResponse => {
  const request = readAcsRequest(secret, fields.request, options.nowMs);
  if (request === null) {
    return errorPage({
      code: null,
      message: "Doğrulama oturumu geçersiz ya da süresi dolmuş. Lütfen ödemeye yeniden başlayın.",
      traceId: options.traceId ?? null,
      nonce: options.nonce,
      status: 400,
    });
  }
  // The callback token lives as long as the ACS session: the deadline was fixed at 3D start.
  const token = issueCallbackToken(secret, {
    attemptId: request.attemptId,
    profile: request.profile,
    expiresAtMs: request.expiresAtMs,
  });
  const formActions = request.returnOrigin === null ? [request.callbackUrl] : [request.callbackUrl, request.returnOrigin];
  return renderPage({
    title: "3D Secure doğrulaması",
    body: renderAcsForm(request, maskPan(fields.pan ?? ""), token),
    nonce: options.nonce,
    formActions,
  });
};
