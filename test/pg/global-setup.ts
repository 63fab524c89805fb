import type { TestProject } from "vitest/node";
import { startPgCluster } from "../support/pg-cluster";

// One PostgreSQL cluster for the whole `pg` project (issue 23): starting one costs about a second,
// a database on it a few milliseconds, so tests share the cluster and each makes its own database
// (freshDatabase in test/support/pg-cluster.ts). Tests run in other processes: they get the URL
// through vitest's provide/inject, the only channel from here to them.

declare module "vitest" {
  export interface ProvidedContext {
    /** postgres://postgres@127.0.0.1:PORT/postgres, the maintenance database of the run's cluster. */
    pgUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = performance.now();
  const cluster = await startPgCluster({ durable: project.name !== "api-pg" });
  console.info(`pg: PostgreSQL on 127.0.0.1:${cluster.port}, started in ${Math.round(performance.now() - started)} ms`);
  project.provide("pgUrl", cluster.url);
  return () => cluster.stop();
}
