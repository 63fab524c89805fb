import type { Deps } from "../deps";
import type { PageRoute } from "./page";

// Every browser-facing route, as one table (the API's is routes.ts).

export function pageRoutes(_deps: Deps): PageRoute[] {
  return [];
}
