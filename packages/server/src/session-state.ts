import type { LoggingLevel } from "./log-level.js";
import type { ClientCapabilities, Implementation, ServerCapabilities } from "./protocol-types.js";

/**
 * Where a session is in the legacy lifecycle: `new` (only `initialize` and `ping`), `ready`
 * (initialize answered), `initialized` (the client sent `notifications/initialized`).
 */
export type SessionPhase = "new" | "ready" | "initialized";

/** The mutable facts of one session, shared by its handlers (internal). */
export interface SessionState {
  phase: SessionPhase;
  protocolVersion?: string;
  clientInfo?: Implementation;
  clientCapabilities?: ClientCapabilities;
  serverCapabilities?: ServerCapabilities;
  logLevel?: LoggingLevel;
  readonly subscriptions: Set<string>;
}
