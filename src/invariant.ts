/** For our own bugs only (a 500), never for a caller's mistake (use a catalog code). */
export class InvariantError extends Error {
  override name = "InvariantError";
}

export function invariant(condition: unknown, message: string): asserts condition {
  if (!condition) throw new InvariantError(message);
}
