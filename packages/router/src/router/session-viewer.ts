/**
 * Who a client session serves, for what the gateway's own tools (`gateway_status`, `get_events`)
 * show it: the operator sees everything; anyone else sees only the backends of its profile and the
 * events of its own sessions.
 */
export interface SessionViewer {
  /** Sees every backend, profile, session and event. */
  readonly operator: boolean;
  /** Who holds the session (a token name on HTTP); sessions of one owner see each other's events. */
  readonly owner?: string;
}

/** The viewer of `router.serve` when none is given: whoever runs the router (stdio, in process). */
export const OPERATOR_VIEWER: SessionViewer = { operator: true };
