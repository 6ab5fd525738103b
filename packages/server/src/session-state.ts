import type { LoggingLevel, v2025_11_25 } from "@patchbay/mcp-types";

/**
 * Where a session is in the legacy lifecycle: `new` (only `initialize` and `ping`), `ready`
 * (initialize answered), `initialized` (the client sent `notifications/initialized`).
 */
export type SessionPhase = "new" | "ready" | "initialized";

/** The mutable facts of one session, shared by its handlers (internal). */
export interface SessionState {
  phase: SessionPhase;
  protocolVersion?: string;
  clientInfo?: v2025_11_25.Implementation;
  clientCapabilities?: v2025_11_25.ClientCapabilities;
  serverCapabilities?: v2025_11_25.ServerCapabilities;
  logLevel?: LoggingLevel;
  readonly subscriptions: Set<string>;
}
