// Every routing decision, told to whoever counts them (the metric `kasa_route_decisions_total`,
// docs/routing.md, Reading a decision). `member` null: no member could serve (a refusal).

export type RouteDecision = { terminal: string; rule: string; member: string | null };

export interface RouteDecisions {
  record(decision: RouteDecision): void;
  observe(observer: (decision: RouteDecision) => void): void;
}

export function createRouteDecisions(): RouteDecisions {
  let observer: (decision: RouteDecision) => void = () => {};
  return {
    record: (decision) => observer(decision),
    observe(next) {
      observer = next;
    },
  };
}
