import type { Deps } from "../deps";
import type { ApiRoute } from "./endpoint";
import { getAcceptance } from "./handlers/acceptance";
import { postInstallmentOptions, postInstallmentOverview } from "./handlers/installments";
import { installmentOptionsBody, installmentOverviewBody } from "../domain/installments/schema";
import { getClock, moveClock, moveClockBody, type SandboxClockControl } from "./handlers/sandbox-clock";
import { outageBody, setOutage } from "./handlers/sandbox-outage";
import { cancelPaymentLink, createPaymentLink, getPaymentLink, listPaymentLinks } from "./handlers/payment-links";
import { createLinkBody } from "../domain/payment-links/schema";
import { createPayment, getPayment, getPaymentByTxCode } from "./handlers/payments";
import { createPaymentBody } from "../domain/payments/schema";
import { getRefund, postRefund } from "./handlers/refunds";
import { simulateLink, simulateLinkBody, simulatePayment, simulatePaymentBody } from "./handlers/sandbox-simulate";
import type { SandboxBuyer } from "./sandbox/simulate";
import { refundBody } from "../domain/refunds/schema";

// The whole API as one table (DESIGN.md): method, path, gate, budgets, Retry-After, body schema,
// handler. Budget names are docs/contract.md#rate-limits's.

const RETRY_AFTER_S = 60;

export function apiRoutes(_deps: Deps): ApiRoute[] {
  return [
    {
      method: "GET",
      path: "/v1/payment-acceptance",
      gate: true,
      budgets: ["reads.key"],
      retryAfterS: RETRY_AFTER_S,
      handle: getAcceptance,
    },
    // docs/contract.md, Create a link / List links / Read and cancel a link / Limits: writes share one key budget, reads another, all four one IP budget.
    {
      method: "POST",
      path: "/v1/payment-links",
      gate: true,
      budgets: ["links.write.key", "links.ip"],
      retryAfterS: RETRY_AFTER_S,
      body: createLinkBody,
      handle: createPaymentLink,
    },
    {
      method: "GET",
      path: "/v1/payment-links",
      gate: true,
      budgets: ["links.read.key", "links.ip"],
      retryAfterS: RETRY_AFTER_S,
      handle: listPaymentLinks,
    },
    {
      method: "GET",
      path: "/v1/payment-links/:id",
      gate: true,
      budgets: ["links.read.key", "links.ip"],
      retryAfterS: RETRY_AFTER_S,
      handle: getPaymentLink,
    },
    {
      method: "DELETE",
      path: "/v1/payment-links/:id",
      gate: true,
      budgets: ["links.write.key", "links.ip"],
      retryAfterS: RETRY_AFTER_S,
      handle: cancelPaymentLink,
    },
    // docs/contract.md, Options for a card / The overview: one per-partner budget (docs/contract.md, Rate limits), and 429 without Retry-After (docs/contract.md, Limits; docs/errors.md, API errors).
    {
      method: "POST",
      path: "/v1/installment-options",
      gate: true,
      budgets: ["installments.partner"],
      retryAfterS: null,
      body: installmentOptionsBody,
      handle: postInstallmentOptions,
    },
    {
      method: "POST",
      path: "/v1/installment-options/overview",
      gate: true,
      budgets: ["installments.partner"],
      retryAfterS: null,
      body: installmentOverviewBody,
      handle: postInstallmentOverview,
    },
    // docs/contract.md, Create a payment / Read a payment / Limits: every create attempt (replays too) draws on three budgets; lookups on reads.key (docs/contract.md, Rate limits).
    {
      method: "POST",
      path: "/v1/payments",
      gate: true,
      budgets: ["payments.create.key", "payments.create.ip", "payments.create.ip.hourly"],
      retryAfterS: RETRY_AFTER_S,
      body: createPaymentBody,
      handle: createPayment,
    },
    { method: "GET", path: "/v1/payments", gate: true, budgets: ["reads.key"], retryAfterS: RETRY_AFTER_S, handle: getPaymentByTxCode },
    {
      method: "GET",
      path: "/v1/payments/:paymentCode",
      gate: true,
      budgets: ["reads.key"],
      retryAfterS: RETRY_AFTER_S,
      handle: getPayment,
    },
    // docs/contract.md, Refunds / The refund record: refunds share the reads.key budget (docs/contract.md, Rate limits); one body for all three (docs/decisions.md, Readings of the contract).
    {
      method: "POST",
      path: "/v1/payments/:paymentCode/refunds",
      gate: true,
      budgets: ["reads.key"],
      retryAfterS: RETRY_AFTER_S,
      body: refundBody,
      handle: postRefund("auto"),
    },
    {
      method: "POST",
      path: "/v1/payments/:paymentCode/refunds/credit",
      gate: true,
      budgets: ["reads.key"],
      retryAfterS: RETRY_AFTER_S,
      body: refundBody,
      handle: postRefund("credit"),
    },
    {
      method: "POST",
      path: "/v1/payments/:paymentCode/refunds/void",
      gate: true,
      budgets: ["reads.key"],
      retryAfterS: RETRY_AFTER_S,
      body: refundBody,
      handle: postRefund("void"),
    },
    {
      method: "GET",
      path: "/v1/payments/:paymentCode/refunds/:refundId",
      gate: true,
      budgets: ["reads.key"],
      retryAfterS: RETRY_AFTER_S,
      handle: getRefund,
    },
  ];
}

/** docs/contract.md, The sandbox: only in sandbox mode; elsewhere these paths are plain 404s. */
export function sandboxRoutes(clock: SandboxClockControl, buyer: () => SandboxBuyer): ApiRoute[] {
  return [
    { method: "GET", path: "/sandbox/clock", gate: false, budgets: [], retryAfterS: null, handle: getClock(clock) },
    {
      method: "POST",
      path: "/sandbox/clock",
      gate: false,
      budgets: [],
      retryAfterS: null,
      body: moveClockBody,
      handle: moveClock(clock) as ApiRoute["handle"],
    },
    {
      method: "POST",
      path: "/sandbox/payments/:paymentCode/simulate",
      gate: false,
      budgets: [],
      retryAfterS: null,
      body: simulatePaymentBody,
      handle: simulatePayment(buyer) as ApiRoute["handle"],
    },
    {
      method: "POST",
      path: "/sandbox/payment-links/:id/simulate",
      gate: false,
      budgets: [],
      retryAfterS: null,
      body: simulateLinkBody,
      handle: simulateLink(buyer) as ApiRoute["handle"],
    },
    {
      method: "POST",
      path: "/sandbox/connections/:id/outage",
      gate: false,
      budgets: [],
      retryAfterS: null,
      body: outageBody,
      handle: setOutage as ApiRoute["handle"],
    },
  ];
}

/**
 * Every API operation, sandbox ones included, for the OpenAPI description (issue 21): the sandbox
 * routes' controls are never called here.
 */
export function documentedRoutes(): ApiRoute[] {
  const unused = (): never => {
    throw new Error("documentation only");
  };
  return [...apiRoutes(undefined as never), ...sandboxRoutes({ nowMs: unused, moveTo: unused }, unused)];
}
