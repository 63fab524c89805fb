import { addUser } from "../../src/domain/users/service";
import { formClient } from "../../src/http/sandbox/form-client";
import { DAY_MS, HOUR_MS } from "../../src/limits";
import { Sensitive } from "../../src/sensitive";
import { api, type PanelKasa } from "./panel-servers";

// Issue 38: a demo partner with something on every part of the dashboard, made the way buyers and
// the merchant make it (API, relay, the simulated banks' 3D pages, the sandbox clock and outages):
// captures on two days, a payment abandoned at the bank's page, one of every failure reason, a
// router attempt failed over to the second bank, a refund, an open link and payouts to come.

export const VIEWER_EMAIL = "viewer@demo.test";
export const VIEWER_PASSWORD = "viewer-password-123";

const CARD = { expireMonth: "12", expireYear: "34", cv2: "123" };

export type Attempted = { code: string; leftTo: string | null };

/** A payment created by the API and tried once with `pan`; `otp` null leaves the buyer at the bank's page. */
export async function tryPayment(
  k: PanelKasa,
  partnerTxCode: string,
  pan: string,
  { amount = 10_000, terminalId = "T-1001", otp = "123456" as string | null } = {},
): Promise<Attempted> {
  const created = await api(k, "POST", "/v1/payments", { amount, partnerTxCode, terminalId, returnUrl: "https://shop.example/done" });
  if (created.status !== 201) throw new Error(`create: ${JSON.stringify(created.json)}`);
  const client = formClient((url, init) => fetch(url, { ...init, redirect: "manual" }), [k.baseUrl]);
  const acs = await client.post(`${k.baseUrl}/handoff`, { paymentRef: created.json.paymentRef, pan, ...CARD });
  const form = acs.page?.forms[0];
  if (otp === null || !form || !acs.page?.body.includes('name="otp"'))
    return { code: created.json.paymentCode, leftTo: acs.leftTo ?? null };
  const done = await client.submit(form, { otp }, "confirm");
  return { code: created.json.paymentCode, leftTo: done.leftTo ?? null };
}

export type World = { yesterdays: string; todays: string; routedToB: string; abandoned: string; linkId: string };

export async function seedWorld(k: PanelKasa): Promise<World> {
  const deps = k.runtime.deps;
  const yesterdays = (await tryPayment(k, "W-YESTERDAY", "4000001100000009", { amount: 25_000 })).code;
  // Left at the bank's page: the window passes, the payment expires, the attempt was abandoned.
  const abandoned = (await tryPayment(k, "W-ABANDONED", "4000001100000009", { otp: null })).code;
  await api(k, "POST", "/sandbox/clock", { advanceSeconds: HOUR_MS / 1000 });
  await deps.timers.runDue();
  await api(k, "POST", "/sandbox/clock", { advanceSeconds: (DAY_MS - HOUR_MS) / 1000 });
  await deps.timers.runDue();
  const todays = (await tryPayment(k, "W-TODAY", "4000001100000009", { amount: 12_345 })).code;
  await tryPayment(k, "W-DECLINED", "5400007700000003");
  await tryPayment(k, "W-3D", "4000008800000007");
  await tryPayment(k, "W-FUNDS", "4000009900000004");
  await deps.timers.runDue();
  // Demo Bank A down: the router fails over to Demo Bank B; with B and the EST bank down too, no
  // member can serve.
  await api(k, "POST", "/sandbox/connections/vpos-1/outage", { seconds: 600 });
  const routedToB = (await tryPayment(k, "W-ROUTED", "4000001100000009", { terminalId: "T-9001" })).code;
  for (const id of ["vpos-2", "vpos-est"]) await api(k, "POST", `/sandbox/connections/${id}/outage`, { seconds: 600 });
  await tryPayment(k, "W-NOBANK", "4000001100000009", { terminalId: "T-9001" });
  for (const id of ["vpos-1", "vpos-2", "vpos-est"]) await api(k, "POST", `/sandbox/connections/${id}/outage`, { seconds: 0 });
  const refund = await api(k, "POST", `/v1/payments/${yesterdays}/refunds`, { amount: 5_000, partnerRefundCode: "W-R1" });
  if (refund.status >= 300) throw new Error(`refund: ${JSON.stringify(refund.json)}`);
  const link = await api(k, "POST", "/v1/payment-links", { amount: 40_000, terminalId: "T-1001", description: "Sipariş 12" });
  if (link.status !== 201) throw new Error(`link: ${JSON.stringify(link.json)}`);
  await addUser(deps, { partnerId: "ptn_demo", email: VIEWER_EMAIL, role: "viewer", password: new Sensitive(VIEWER_PASSWORD) });
  return { yesterdays, todays, routedToB, abandoned, linkId: link.json.id as string };
}
