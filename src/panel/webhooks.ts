import type { Deps } from "../deps";
import {
  listDeliveries,
  resendDelivery,
  sendTestWebhook,
  showDelivery,
  WebhookOperatorError,
  type DeliveryDetail,
} from "../domain/webhooks/service";
import type { PanelSession } from "../domain/users/sessions";
import { roleAllows } from "../domain/users/service";
import { fail } from "../errors";
import { html, type SafeHtml } from "../html";
import { routeParams } from "../http/endpoint";
import type { PanelRoute } from "./route";
import { csrfField, panelPage, scroll, seeOther } from "./layout";
import { when } from "./format";
import { DELIVERY_OUTCOMES, DELIVERY_STATES, EVENT_TYPES, word } from "./words";

// docs/panel.md; docs/contract.md, Webhooks: the partner's webhook deliveries with every attempt; an admin resends
// a settled one (same id and body, docs/contract.md, Signature) or sends `webhook.test`. The operator CLI calls
// the same service functions; their refusals become catalog codes here, and another partner's
// delivery is as absent as an unknown one.

/** The operator service speaks in sentences; the panel answers with the catalog. */
async function asCatalog<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof WebhookOperatorError) fail("validation_error", error.message);
    throw error;
  }
}

async function ownDelivery(deps: Deps, session: PanelSession, id: string): Promise<DeliveryDetail> {
  const row = await deps.store.q.webhooks.get(id);
  if (!row || row.partnerId !== session.user.partnerId) fail("not_found", `delivery ${id} not found`);
  return await showDelivery(deps.store.q, id);
}

async function listBody(deps: Deps, session: PanelSession): Promise<SafeHtml> {
  const rows = (await listDeliveries(deps.store.q, { partnerId: session.user.partnerId })).map(
    (d) =>
      html`<tr><td><a href="/panel/webhooks/${encodeURIComponent(d.id)}">${d.id}</a></td><td>${word(EVENT_TYPES, d.type)}</td><td>${word(DELIVERY_STATES, d.status)}</td><td>${d.attempts}</td><td>${when(Date.parse(d.occurredAt))}</td></tr>`,
  );
  const send =
    roleAllows(session.user.role, "admin") &&
    html`<form method="post" action="/panel/webhooks/test">${csrfField(session)}<div class="actions"><button type="submit">Deneme bildirimi gönder</button></div></form>`;
  const table =
    rows.length === 0
      ? html`<p>Gönderim yok.</p>`
      : scroll(
          "Webhook gönderimleri",
          html`<table><thead><tr><th scope="col">Kimlik</th><th scope="col">Tür</th><th scope="col">Durum</th><th scope="col">Deneme</th><th scope="col">Olay zamanı</th></tr></thead><tbody>${rows}</tbody></table>`,
        );
  return html`${send}${table}`;
}

function detailBody(session: PanelSession, d: DeliveryDetail): SafeHtml {
  const attempts = d.history.map(
    (a) =>
      html`<tr><td>${a.n}</td><td>${when(Date.parse(a.startedAt))}</td><td>${word(DELIVERY_OUTCOMES, a.outcome)}</td><td>${a.httpStatus ?? "—"}</td><td>${a.latencyMs ?? "—"}</td><td>${a.error === null ? "—" : html`<code>${a.error}</code>`}</td></tr>`,
  );
  const resend =
    roleAllows(session.user.role, "admin") &&
    d.status !== "pending" &&
    html`<form method="post" action="/panel/webhooks/${encodeURIComponent(d.id)}/resend">${csrfField(session)}<div class="actions"><button type="submit">Yeniden gönder</button></div></form>`;
  return html`<dl><dt>Tür</dt><dd>${word(EVENT_TYPES, d.type)} <code>${d.type}</code></dd><dt>Durum</dt><dd id="delivery-status">${word(DELIVERY_STATES, d.status)}</dd><dt>Sonraki deneme</dt><dd>${d.nextAttemptAt === null ? "—" : when(Date.parse(d.nextAttemptAt))}</dd></dl>
<h2>Denemeler</h2>
${attempts.length === 0 ? html`<p>Henüz deneme yok.</p>` : scroll("Denemeler", html`<table><thead><tr><th scope="col">#</th><th scope="col">Zaman</th><th scope="col">Sonuç</th><th scope="col">HTTP</th><th scope="col">Süre (ms)</th><th scope="col">Hata</th></tr></thead><tbody>${attempts}</tbody></table>`)}
${resend}
<h2>Gövde</h2><pre tabindex="0" aria-label="Gönderilen gövde"><code>${d.body}</code></pre>`;
}

export function webhookPages(deps: Deps): PanelRoute[] {
  return [
    {
      method: "GET",
      path: "/panel/webhooks",
      auth: "panel:viewer",
      handle: async (_e, ctx) =>
        panelPage(deps, ctx.session, {
          title: "Webhook gönderimleri",
          current: "/panel/webhooks",
          body: await listBody(deps, ctx.session),
        }),
    },
    {
      method: "GET",
      path: "/panel/webhooks/:id",
      auth: "panel:viewer",
      async handle(event, ctx) {
        const d = await ownDelivery(deps, ctx.session, routeParams(event).id ?? "");
        return panelPage(deps, ctx.session, { title: `Gönderim ${d.id}`, current: "/panel/webhooks", body: detailBody(ctx.session, d) });
      },
    },
    {
      method: "POST",
      path: "/panel/webhooks/test",
      auth: "panel:admin",
      action: "webhook.test",
      async handle(_e, ctx) {
        const d = await asCatalog(() => sendTestWebhook(deps, ctx.session.user.partnerId));
        return seeOther(`/panel/webhooks/${encodeURIComponent(d.id)}`);
      },
    },
    {
      method: "POST",
      path: "/panel/webhooks/:id/resend",
      auth: "panel:admin",
      action: "webhook.resend",
      async handle(event, ctx) {
        const id = (await ownDelivery(deps, ctx.session, routeParams(event).id ?? "")).id;
        await asCatalog(() => resendDelivery(deps, id));
        return seeOther(`/panel/webhooks/${encodeURIComponent(id)}`);
      },
    },
  ];
}
