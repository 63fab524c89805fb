/**
 * A counting semaphore: at most `size` tasks run at once, the rest wait in arrival order. The
 * webhook worker sends through it so a burst of due deliveries (or a set of hanging receivers)
 * never holds more than WEBHOOK_CONCURRENCY connections.
 */
export class Slots {
  private free: number;
  private readonly waiters: Array<() => void> = [];

  constructor(readonly size: number) {
    if (!Number.isSafeInteger(size) || size < 1) throw new RangeError(`slot count must be a positive integer, got ${size}`);
    this.free = size;
  }

  get running(): number {
    return this.size - this.free;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((resolve) => this.waiters.push(resolve));
    try {
      return await task();
    } finally {
      // Hand the slot straight to the next waiter, so a newcomer cannot overtake it.
      const next = this.waiters.shift();
      if (next) next();
      else this.free += 1;
    }
  }
}
