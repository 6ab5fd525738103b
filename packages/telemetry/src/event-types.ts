/**
 * The event types Patchbay emits, as dotted `noun.verb` names. Other dotted names are allowed; these
 * are the ones the gateway, proxy and decorators use, so queries such as `backend.*` can rely on them.
 */
export const EventTypes = {
  /** The gateway or proxy finished starting. */
  gatewayStarted: "gateway.started",
  /** The gateway or proxy is stopping. */
  gatewayStopped: "gateway.stopped",
  /** A backend process or connection is up and initialized. */
  backendStarted: "backend.started",
  /** A backend ended unexpectedly. */
  backendCrashed: "backend.crashed",
  /** A crashed backend was started again. */
  backendRestarted: "backend.restarted",
  /** A backend was stopped on purpose. */
  backendStopped: "backend.stopped",
  /** A request arrived (status `pending`). */
  requestReceived: "request.received",
  /** A request was sent to a peer (status `pending`). */
  requestSent: "request.sent",
  /** A request got its response (status `success` or `failure`, with `duration_ms`). */
  requestCompleted: "request.completed",
  /** A request got no response in time. */
  requestTimeout: "request.timeout",
  /** A request was cancelled before it completed. */
  requestCancelled: "request.cancelled",
  /** A `tools/call` completed (status `failure` also for a result with `isError: true`). */
  toolCalled: "tool.called",
  /** Authentication or authorization refused a client. */
  authDenied: "auth.denied",
  /** A client session began. */
  sessionStarted: "session.started",
  /** A client session ended. */
  sessionEnded: "session.ended",
  /** A transport reported a non-fatal error. */
  transportError: "transport.error",
  /** A transport closed. */
  transportClosed: "transport.closed",
} as const;

/** One of the known event type names. */
export type KnownEventType = (typeof EventTypes)[keyof typeof EventTypes];
