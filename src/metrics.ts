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

export class Counter {
  private readonly metric: prom.Counter<string>;
  constructor(registry: Registry, name: string, help: string, labelNames: readonly string[] = []) {
    this.metric = new prom.Counter({ name, help, labelNames: [...labelNames], registers: [registry.prom] });
  }
  inc(labels: Labels = {}, by = 1): void {
    this.metric.inc(labels, by);
  }
}

export class Histogram {
  private readonly metric: prom.Histogram<string>;
  constructor(registry: Registry, name: string, help: string, buckets: readonly number[], labelNames: readonly string[] = []) {
    this.metric = new prom.Histogram({ name, help, buckets: [...buckets], labelNames: [...labelNames], registers: [registry.prom] });
  }
  observe(value: number, labels: Labels = {}): void {
    this.metric.observe(labels, value);
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
