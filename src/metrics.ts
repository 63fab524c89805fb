import * as prom from "prom-client";

/**
 * docs/operating.md: the Prometheus registry, on prom-client (it runs inside the compiled Bun binary,
 * default process metrics included). A thin facade: counters and histograms are fed as things
 * happen; gauges, and counters kept elsewhere (the database's trigger counts), are read at scrape.
 */
type Labels = Record<string, string>;

export class Registry {
  readonly prom = new prom.Registry();
  constructor() {
    prom.collectDefaultMetrics({ register: this.prom, prefix: "kasa_" });
  }
  /** The exposition text (Prometheus text format 0.0.4). */
  render(): Promise<string> {
    return this.prom.metrics();
  }
}

/**
 * The series of one family by their labels, told apart as prom-client tells them apart (each label's
 * value as a string, an undefined value the same as a missing one), in the order they first
 * appeared: what prom-client's own Counter and Histogram print, without their per-call validation
 * closures, copies and key strings (issue 37: they were a tenth of a cached read's time). The
 * lookup walks one map per label name, in sorted order, so a request builds no key.
 */
type Series<T> = { labels: Labels; data: T };
type Node<T> = Map<string | undefined, Node<T> | Series<T>>;

class SeriesMap<T> {
  private root: Node<T> = new Map();
  private list: Series<T>[] = [];
  private readonly names: ReadonlySet<string>;
  private readonly sorted: readonly string[];
  constructor(
    private readonly labelNames: readonly string[],
    private readonly fresh: () => T,
  ) {
    this.names = new Set(labelNames);
    this.sorted = [...labelNames].sort();
    this.reset();
  }
  of(labels: Labels): T {
    for (const name in labels) {
      if (!this.names.has(name))
        throw new Error(`Added label "${name}" is not included in initial labelset: ${[...this.labelNames].join(", ")}`);
    }
    let node = this.root;
    const last = this.sorted.length - 1;
    for (let i = 0; i < last; i++) {
      const value = valueKey(labels[this.sorted[i]!]);
      let next = node.get(value) as Node<T> | undefined;
      if (next === undefined) {
        next = new Map();
        node.set(value, next);
      }
      node = next;
    }
    const leaf = valueKey(last < 0 ? undefined : labels[this.sorted[last]!]);
    let series = node.get(leaf) as Series<T> | undefined;
    if (series === undefined) {
      series = { labels: { ...labels }, data: this.fresh() };
      node.set(leaf, series);
      this.list.push(series);
    }
    return series.data;
  }
  entries(): Iterable<Series<T>> {
    return this.list;
  }
  /** As prom-client: a family without labels always has its one series, at zero. */
  reset(): void {
    this.root = new Map();
    this.list = [];
    if (this.labelNames.length === 0) this.of({});
  }
}

const valueKey = (value: string | number | undefined): string | undefined =>
  value === undefined || typeof value === "string" ? value : String(value);

/** A family prom-client's registry prints: the shape its own metrics answer `get` with. */
type Family = {
  name: string;
  help: string;
  type: "counter" | "histogram";
  aggregator: "sum";
  get(): Promise<{ name: string; help: string; type: string; values: unknown[]; aggregator: "sum" }>;
  reset(): void;
};

function register(registry: Registry, family: Family): void {
  if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(family.name)) throw new Error("Invalid metric name");
  registry.prom.registerMetric(family as unknown as prom.Metric);
}

export class Counter {
  private readonly series: SeriesMap<{ value: number }>;
  constructor(registry: Registry, name: string, help: string, labelNames: readonly string[] = []) {
    this.series = new SeriesMap(labelNames, () => ({ value: 0 }));
    const series = this.series;
    register(registry, {
      name,
      help,
      type: "counter",
      aggregator: "sum",
      get: async () => ({
        name,
        help,
        type: "counter",
        values: [...series.entries()].map((s) => ({ value: s.data.value, labels: s.labels })),
        aggregator: "sum",
      }),
      reset: () => series.reset(),
    });
  }
  inc(labels: Labels = {}, by = 1): void {
    if (by && !Number.isFinite(by)) throw new TypeError(`Value is not a valid number: ${by}`);
    if (by < 0) throw new Error("It is not possible to decrease a counter");
    this.series.of(labels).value += by;
  }
}

type Buckets = { counts: number[]; sum: number; count: number };

export class Histogram {
  private readonly series: SeriesMap<Buckets>;
  private readonly bounds: readonly number[];
  constructor(registry: Registry, name: string, help: string, buckets: readonly number[], labelNames: readonly string[] = []) {
    if (labelNames.includes("le")) throw new Error("le is a reserved label keyword");
    const bounds = [...buckets];
    this.bounds = bounds;
    this.series = new SeriesMap(labelNames, () => ({ counts: bounds.map(() => 0), sum: 0, count: 0 }));
    const series = this.series;
    register(registry, {
      name,
      help,
      type: "histogram",
      aggregator: "sum",
      // The values prom-client's Histogram prints: cumulative buckets, +Inf, _sum and _count per series.
      get: async () => {
        const values: unknown[] = [];
        for (const { labels, data } of series.entries()) {
          let acc = 0;
          bounds.forEach((le, i) => {
            acc += data.counts[i]!;
            values.push({ labels: { le }, sharedLabels: labels, value: acc, metricName: `${name}_bucket`, exemplar: null });
          });
          values.push({ labels: { le: "+Inf" }, sharedLabels: labels, value: data.count, metricName: `${name}_bucket`, exemplar: null });
          values.push({ labels: {}, sharedLabels: labels, value: data.sum, metricName: `${name}_sum`, exemplar: undefined });
          values.push({ labels: {}, sharedLabels: labels, value: data.count, metricName: `${name}_count`, exemplar: undefined });
        }
        return { name, help, type: "histogram", values, aggregator: "sum" };
      },
      reset: () => series.reset(),
    });
  }
  observe(value: number, labels: Labels = {}): void {
    if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
    const data = this.series.of(labels);
    data.sum += value;
    data.count += 1;
    const i = this.bounds.findIndex((le) => value <= le);
    if (i >= 0) data.counts[i]! += 1;
  }
}

type Sample = { labels: Labels; value: number };

/**
 * A family read at scrape time from its source: a gauge (the outbox, the timer wheel) or a counter
 * whose totals are kept elsewhere (the database's trigger counts).
 */
export function scraped(
  type: "gauge" | "counter",
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly string[],
  read: () => Sample[] | Promise<Sample[]>,
): void {
  const common = { name, help, labelNames: [...labelNames], registers: [registry.prom] };
  if (type === "gauge") {
    new prom.Gauge({
      ...common,
      async collect() {
        const samples = await read();
        this.reset();
        for (const s of samples) this.set(s.labels, s.value);
      },
    });
    return;
  }
  new prom.Counter({
    ...common,
    async collect() {
      const samples = await read();
      this.reset();
      for (const s of samples) this.inc(s.labels, s.value);
    },
  });
}

export const PROMETHEUS_CONTENT_TYPE = prom.Registry.PROMETHEUS_CONTENT_TYPE;
