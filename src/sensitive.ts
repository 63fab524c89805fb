import { inspect } from "node:util";

const REDACTED = "[redacted]";

/**
 * A value that must never be printed anywhere: card numbers, security codes, API keys, secrets.
 * Every accidental rendering path prints "[redacted]"; only `reveal()` yields the value, and
 * that call is the one place a reviewer has to look at.
 */
export class Sensitive<T = string> {
  readonly #value: T;
  constructor(value: T) {
    this.#value = value;
  }
  reveal(): T {
    return this.#value;
  }
  toString(): string {
    return REDACTED;
  }
  toJSON(): string {
    return REDACTED;
  }
  [inspect.custom](): string {
    return REDACTED;
  }
}

export const sensitive = <T>(value: T): Sensitive<T> => new Sensitive(value);
