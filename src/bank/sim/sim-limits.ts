/** Every number the simulated bank uses, named once (DESIGN house style 5). */

/** From 3D start until the ACS result must reach the callback; a real ACS session is this short. */
export const SIM_ACS_WINDOW_MS = 10 * 60 * 1000;

/** Card 5400001300000000: its refunds and voids stay `pending` this long, then approve (docs/checkout.md). */
export const SIM_REFUND_PENDING_MS = 60 * 1000;

/** Tokens longer than this are refused before any hashing: they were not made by this bank. */
export const SIM_TOKEN_MAX_CHARS = 2048;

/** The one-time code that authenticates at the simulated ACS (docs/checkout.md, The bank's 3D page). */
export const SIM_OTP = "123456";
