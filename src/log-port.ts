/**
 * Domain code, the store and the bank adapters log through this, never through consola directly
 * (DESIGN.md dependency direction). It imports nothing, so anything may depend on it without
 * forming an import circle.
 */
export interface Log {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}
