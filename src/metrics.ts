/**
 * product 19: a small Prometheus text-format (0.0.4) registry. Counters and histograms are fed as
 * things happen; gauges are read at scrape time from their source (the database, the timer wheel).
 */
type Labels = Record<string, string>;

const escapeLabel = (v: string): string => v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
const labelText = (labels: Labels): string => {
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${escapeLabel(v)}"`);
  return parts.length === 0 ? "" : `{${parts.join(",")}}`;
};

interface Family {
  render(): string[];
}

export class Counter implements Family {
  private readonly values = new Map<string, { labels: Labels; value: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  inc(labels: Labels = {}, by = 1): void {
    const key = labelText(labels);
    const cur = this.values.get(key);
    if (cur) cur.value += by;
    else this.values.set(key, { labels, value: by });
  }
  render(): string[] {
    return [
      `# HELP ${this.name} ${this.help}`,
      `# TYPE ${this.name} counter`,
      ...[...this.values.values()].map((v) => `${this.name}${labelText(v.labels)} ${v.value}`),
    ];
  }
}

export class Histogram implements Family {
  private readonly series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly buckets: readonly number[],
  ) {}
  observe(value: number, labels: Labels = {}): void {
    const key = labelText(labels);
    const known = this.series.get(key);
    const s = known ?? { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
    if (!known) this.series.set(key, s);
    for (const [i, le] of this.buckets.entries()) if (value <= le) s.counts[i]! += 1;
    s.sum += value;
    s.count += 1;
  }
  render(): string[] {
    const out = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const s of this.series.values()) {
      for (const [i, le] of this.buckets.entries())
        out.push(`${this.name}_bucket${labelText({ ...s.labels, le: String(le) })} ${s.counts[i]}`);
      out.push(`${this.name}_bucket${labelText({ ...s.labels, le: "+Inf" })} ${s.count}`);
      out.push(`${this.name}_sum${labelText(s.labels)} ${s.sum}`, `${this.name}_count${labelText(s.labels)} ${s.count}`);
    }
    return out;
  }
}

/** A gauge (or, with `type` "counter", a counter kept elsewhere) whose samples are read when scraped. */
export class Gauge implements Family {
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly read: () => Array<{ labels: Labels; value: number }>,
    private readonly type: "gauge" | "counter" = "gauge",
  ) {}
  render(): string[] {
    return [
      `# HELP ${this.name} ${this.help}`,
      `# TYPE ${this.name} ${this.type}`,
      ...this.read().map((s) => `${this.name}${labelText(s.labels)} ${s.value}`),
    ];
  }
}

export class Registry {
  private readonly families: Family[] = [];
  add<F extends Family>(family: F): F {
    this.families.push(family);
    return family;
  }
  /** The exposition text, one family after another. */
  render(): string {
    return `${this.families.flatMap((f) => f.render()).join("\n")}\n`;
  }
}

export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
