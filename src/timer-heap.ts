/**
 * A binary min-heap of (dueAtMs, seq) over parallel arrays: no object per timer, so a million
 * pending timers cost tens of MiB, not hundreds (issue 11 start-up target). `seq` keeps timers
 * that share a millisecond in scheduling order.
 */
export class TimerHeap {
  private due = new Float64Array(1024);
  private seq = new Float64Array(1024);
  private kinds: string[] = [];
  private keys: string[] = [];
  private n = 0;

  /** How many entries of each kind the heap holds (metrics; O(n), read at scrape time). */
  kindCounts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (let i = 0; i < this.n; i++) counts.set(this.kinds[i]!, (counts.get(this.kinds[i]!) ?? 0) + 1);
    return counts;
  }

  get size(): number {
    return this.n;
  }

  peekDue(): number | undefined {
    return this.n === 0 ? undefined : this.due[0];
  }

  push(dueAtMs: number, seq: number, kind: string, key: string): void {
    if (this.n === this.due.length) this.grow();
    let i = this.n++;
    // Sift up: move parents down until the slot for the new timer is found.
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(dueAtMs, seq, parent)) break;
      this.move(parent, i);
      i = parent;
    }
    this.place(i, dueAtMs, seq, kind, key);
  }

  /** Removes and returns the earliest timer. */
  pop(): { dueAtMs: number; seq: number; kind: string; key: string } | undefined {
    if (this.n === 0) return undefined;
    const top = { dueAtMs: this.due[0]!, seq: this.seq[0]!, kind: this.kinds[0]!, key: this.keys[0]! };
    const last = --this.n;
    if (last > 0) {
      const d = this.due[last]!,
        s = this.seq[last]!,
        k = this.kinds[last]!,
        key = this.keys[last]!;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= last) break;
        const r = l + 1;
        const c = r < last && this.less(this.due[r]!, this.seq[r]!, l) ? r : l;
        if (!this.lessPair(this.due[c]!, this.seq[c]!, d, s)) break;
        this.move(c, i);
        i = c;
      }
      this.place(i, d, s, k, key);
    }
    this.kinds.length = this.n;
    this.keys.length = this.n;
    return top;
  }

  private lessPair(d1: number, s1: number, d2: number, s2: number): boolean {
    return d1 < d2 || (d1 === d2 && s1 < s2);
  }

  private less(d: number, s: number, j: number): boolean {
    return this.lessPair(d, s, this.due[j]!, this.seq[j]!);
  }

  private move(from: number, to: number): void {
    this.due[to] = this.due[from]!;
    this.seq[to] = this.seq[from]!;
    this.kinds[to] = this.kinds[from]!;
    this.keys[to] = this.keys[from]!;
  }

  private place(i: number, d: number, s: number, kind: string, key: string): void {
    this.due[i] = d;
    this.seq[i] = s;
    this.kinds[i] = kind;
    this.keys[i] = key;
  }

  private grow(): void {
    const due = new Float64Array(this.due.length * 2);
    due.set(this.due);
    const seq = new Float64Array(this.seq.length * 2);
    seq.set(this.seq);
    this.due = due;
    this.seq = seq;
  }
}
