// Every number of docs/contract.md#limits, docs/contract.md#requests-and-authentication, docs/seed.md#partners-terminals-and-connections, docs/contract.md#payments, docs/checkout.md, docs/checkout.md#payment-link-pages, docs/contract.md#the-math, docs/contract.md#refunds, docs/contract.md#payment-acceptance, docs/contract.md#webhooks, docs/contract.md#rate-limits and docs/contract.md#the-sandbox that is not a rate budget, named once,
// unit last. Rate budgets live in domain/rate-limits/budgets.ts (docs/contract.md#rate-limits's table).

export const SECOND_MS = 1000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** docs/contract.md, Requests and authentication: request bodies. */
export const MAX_BODY_BYTES = 64 * 1024;
/**
 * Request line plus header fields (names, values, separators) and the number of fields; past
 * either, kasa answers 413 request_too_large itself (issue 14). The binary lets Bun read up to
 * 64 KiB of headers (`--max-http-header-size` in the build script) so that kasa, not Bun's bare
 * 431, answers everything between; Bun's own limits (64 KiB, 198 fields) still close the rest.
 */
export const MAX_HEADER_BYTES = 16 * 1024;
export const MAX_HEADER_FIELDS = 100;

/** docs/contract.md, Link states / Limits: a link is payable for 7 days. */
export const LINK_VALIDITY_MS = 7 * DAY_MS;
/** docs/contract.md, Payment states / Limits: the 3D window. */
export const THREE_D_WINDOW_STANDARD_MS = 30 * MINUTE_MS;
export const THREE_D_WINDOW_EXTENDED_MS = 135 * MINUTE_MS;

/** docs/contract.md, List links / Limits: list paging. */
export const LIST_SIZE_DEFAULT = 20;
export const LIST_SIZE_MIN = 1;
export const LIST_SIZE_MAX = 200;
export const LIST_HORIZON = 100_000;

/** docs/decisions.md, Readings of the contract: a link's amount and each item's amount are at least 1 kuruş. */
export const LINK_AMOUNT_MIN = 1;
/** Our bound on `allowedInstallmentCounts` entries (duplicates are folded, so this is generous). */
export const LINK_ALLOWED_COUNTS_MAX_ENTRIES = 100;
/** Due links a read expires in one unit of work before answering (docs/contract.md, Link states; docs/decisions.md, Readings of the contract). */
export const LINK_EXPIRY_BATCH = 500;

/** docs/contract.md, Items and payerName / Limits. */
export const LINK_ITEMS_MIN = 1;
export const LINK_ITEMS_MAX = 50;
export const ITEM_NAME_MAX_CHARS = 120;
export const ITEM_NOTE_MAX_CHARS = 200;
export const PAYER_NAME_MAX_CHARS = 120;
export const SHARE_BPS_MAX = 10_000;
export const BIN_DIGITS = 8;
/** docs/operating.md, The operator CLI: `kasa bins import` refuses a bigger file before reading it (a wrong file, not a BIN list). */
export const BIN_CSV_MAX_BYTES = 64 * 1024 * 1024;

/** Free-text and identifier bounds of our own (docs/contract.md, Requests and authentication: a limit on everything). */
export const DESCRIPTION_MAX_CHARS = 500;
export const PARTNER_TX_CODE_MAX_CHARS = 64;
export const PARTNER_REFUND_CODE_MAX_CHARS = 64;
export const URL_MAX_CHARS = 2048;
export const TERMINAL_ID_MAX_CHARS = 64;
/** The reference an operator keeps on a payout batch they marked paid or failed. */
export const PAYOUT_REFERENCE_MAX_CHARS = 200;

/** docs/decisions.md, Hardening: how long after an attempt ended its link's result page still leads to redirectUrl. */
export const LINK_RESULT_REDIRECT_MS = 10 * MINUTE_MS;

/** docs/contract.md, Payments: card attempts per payment unless the partner says otherwise. */
export const CARD_ATTEMPT_LIMIT_DEFAULT = 3;
/** docs/decisions.md, Hardening: card attempts a payment link accepts over its whole life, across its payments (card testing). */
export const LINK_CARD_ATTEMPTS_MAX = 10;

/** docs/contract.md, Webhooks: webhooks. */
export const WEBHOOK_TIMEOUT_MS = 5 * SECOND_MS;
export const WEBHOOK_RETRY_DELAYS_MS = [30 * SECOND_MS, 2 * MINUTE_MS, 10 * MINUTE_MS, HOUR_MS, 6 * HOUR_MS] as const;
export const WEBHOOK_GIVE_UP_AFTER_MS = DAY_MS;
export const WEBHOOK_CONCURRENCY = 16;
/** docs/decisions.md, Hardening: deliveries of one partner in flight at once, so a slow receiver cannot take every slot. */
export const WEBHOOK_CONCURRENCY_PER_PARTNER = 4;
export const WEBHOOK_BATCH_SIZE = 256;
/** How much of a 2xx body is read before the rest is cancelled; receivers' bodies are not used. */
export const WEBHOOK_RESPONSE_READ_MAX_BYTES = 4096;
/** Error texts stored with an attempt are cut to this, whatever the runtime puts in them. */
export const WEBHOOK_ERROR_TEXT_MAX_CHARS = 200;
/** How often a server looks for deliveries queued by another process (the CLI's resend and test). */
export const WEBHOOK_SWEEP_INTERVAL_MS = 5 * SECOND_MS;
/** docs/postgresql.md: how often an instance on a shared database looks for due rows it did not schedule. */
export const TIMER_POLL_INTERVAL_MS = 5 * SECOND_MS;
/**
 * docs/postgresql.md: how long past its due instant a bank follow-up (refund or capture question, payout)
 * waits before another instance takes it: longer than any bank call (EST's deadline is 30 s).
 */
export const BANK_TAKEOVER_MS = 60 * SECOND_MS;

/** docs/contract.md, Refunds: refund records per payment (docs/contract.md#the-payment-record lists them all); one more is payment_not_refundable. */
export const REFUNDS_PER_PAYMENT_MAX = 100;
/** A pending refund without the bank's hint, or a bank call that failed, is tried again after this. */
export const BANK_RETRY_MS = 60 * SECOND_MS;
/** docs/contract.md, Refunds: a server down for longer than this catches up only this many day ends (they are cumulative). */
export const DAYEND_CATCH_UP_MAX_DAYS = 366;

/** Sandbox refunds of the "slow" test card stay pending this long (docs/checkout.md). */
export const SIM_PENDING_REFUND_MS = 60 * SECOND_MS;

/** docs/contract.md, Identifiers and formats: API keys. */
export const API_KEY_RANDOM_CHARS = 40;
export const API_KEY_MIN_CHARS = 24;

/** Timer wheel: how many due timers one tick hands out before yielding to requests. */
export const TIMER_BATCH_SIZE = 512;
/** Timer handlers running at once; beyond this the runner waits for some to finish. */
export const TIMER_MAX_IN_FLIGHT = 4096;

/** Europe/Istanbul is UTC+3 all year (docs/contract.md, Identifiers and formats). */
export const ISTANBUL_OFFSET_MS = 3 * HOUR_MS;

/**
 * docs/decisions.md, Hardening: the sandbox clock never moves past 9999-12-31, read as an Istanbul date like every
 * date of kasa (docs/contract.md, Identifiers and formats): a later instant has no 4-digit-year date, so day end could not run.
 */
export const SANDBOX_CLOCK_MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999) - ISTANBUL_OFFSET_MS;
/** docs/panel.md: the merchant panel. */
/** Failures of one (account, source address) that lock that pair, and for how long (issue 30). */
export const PANEL_LOGIN_FAILURES_MAX = 5;
export const PANEL_LOCK_MS = 15 * MINUTE_MS;
/** Failures of one account from every address within the hour after which failing addresses are slowed. */
export const PANEL_ACCOUNT_FAILURES_MAX = 50;
export const PANEL_ACCOUNT_WINDOW_MS = HOUR_MS;
/** Password hashes (Argon2id, 64 MiB each) running at once in one process. */
export const PANEL_HASHES_AT_ONCE = 4;
export const PANEL_SESSION_IDLE_MS = 30 * MINUTE_MS;
export const PANEL_SESSION_ABSOLUTE_MS = 12 * HOUR_MS;
/** A session's last-seen time is written at most this often (one write per page would be waste). */
export const PANEL_TOUCH_EVERY_MS = MINUTE_MS;
export const PANEL_PASSWORD_MIN_CHARS = 12;
export const PANEL_PASSWORD_MAX_CHARS = 256;
export const PANEL_PAGE_SIZE = 50;
