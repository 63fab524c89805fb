import { MINUTE_MS, SECOND_MS } from "../../limits";

// When an attempt's bank follow-ups (capture checks, late voids, 3D Pay gate questions) run: one
// timer kind, key = attemptId, re-aimed after each unanswered try (30 s, 2 min, 10 min, 1 h, then
// hourly). Kept apart so the units that open checks need nothing else of the capture path.

/** Timer kind of an attempt's capture check; key = attemptId. */
export const CAPTURE_CHECK_TIMER = "capture-check";

/** The check opened with the capture: past any adapter's timeout, so it only acts after a crash. */
export const CAPTURE_CHECK_FIRST_MS = 150 * SECOND_MS;

const RETRY_MS = [30 * SECOND_MS, 2 * MINUTE_MS, 10 * MINUTE_MS, 60 * MINUTE_MS];
export const FIRST_RETRY_MS = 30 * SECOND_MS;
export const nextCheckAtMs = (tries: number, nowMs: number): number => nowMs + (RETRY_MS[tries] ?? 60 * MINUTE_MS);
