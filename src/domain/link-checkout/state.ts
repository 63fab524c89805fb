import type { LinkStatus } from "../../store/rows";

/**
 * What the buyer's page shows for each state of docs/contract.md, Link states: a link that can be paid, one whose
 * attempt is in 3D Secure (no second attempt may start, 3.1), and the three terminal states.
 * `failed` is payable again; `pending` is payable and becomes `launched` on the first open.
 */
export type LinkPageState = "payable" | "busy" | "completed" | "expired" | "cancelled";

const PAGE_STATES: Record<LinkStatus, LinkPageState> = {
  pending: "payable",
  launched: "payable",
  failed: "payable",
  initiated: "busy",
  completed: "completed",
  expired: "expired",
  cancelled: "cancelled",
};

export const pageStateOf = (status: LinkStatus): LinkPageState => PAGE_STATES[status];
