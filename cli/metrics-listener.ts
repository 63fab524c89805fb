import { H3, serve } from "h3";
import { PROMETHEUS_CONTENT_TYPE } from "../src/metrics";
import { CliError } from "./cli-error";

export type MetricsListener = { close(): Promise<void> };

/**
 * docs/operating.md: `/metrics` only on its own listener (loopback unless --metrics-host), so the public
 * port never exposes it. Started before the database is touched: a port in use changes nothing.
 */
export async function startMetricsListener(host: string, port: number, render: () => Promise<string>): Promise<MetricsListener> {
  const app = new H3().get("/metrics", async () => new Response(await render(), { headers: { "content-type": PROMETHEUS_CONTENT_TYPE } }));
  try {
    const server = serve(app, { port, hostname: host, silent: true, gracefulShutdown: false });
    await server.ready();
    return { close: () => server.close(true) };
  } catch (error) {
    const code = (error as { code?: string }).code;
    const inUse = code === "EADDRINUSE" || /in use/i.test(String((error as Error).message));
    throw new CliError(
      `--metrics-port ${port}: ${inUse ? `${host}:${port} is already in use` : String((error as Error).message).split("\n")[0]}`,
    );
  }
}
