import type { Implementation, LoggingLevel } from "@patchbay/client";
import type { Telemetry } from "@patchbay/telemetry";
import type { ConflictReport } from "../catalogue/conflict.js";
import type { GatewayConfig } from "../config/gateway-config.js";
import type { NameCodec } from "../namespacing/qualified-name.js";
import type { Backend, BackendHost } from "./backend.js";
import type { RouterClock } from "./router-clock.js";

/** What a client session needs from the router it belongs to (internal seam). */
export interface RouterContext {
  readonly serverInfo: Implementation;
  readonly telemetry: Telemetry;
  readonly clock: RouterClock;
  /** How long list requests wait for backends still starting. */
  readonly listWaitMs: number;
  config(): GatewayConfig;
  codec(): NameCodec;
  /** The shared backend of a name, if the config has one with `isolation: "shared"`. */
  sharedBackend(name: string): Backend | undefined;
  /** Builds the host of a backend owned by one session. */
  createSessionBackendHost(sessionId: string): BackendHost;
  /** The logging level to set on a backend, from the levels of the clients that see it. */
  logLevelFor(backend: string, sessionId?: string): LoggingLevel | undefined;
  /** The gateway's status as one session sees it. */
  status(sessionId: string): Record<string, unknown>;
  /** Records conflicts not reported before. */
  reportConflicts(conflicts: readonly ConflictReport[]): void;
  /**
   * True when a live session other than `sessionId` that shares `backend` subscribed to `uri` (the
   * backend's own URI, whatever URI each session exposes for it).
   */
  subscribedElsewhere(sessionId: string, backend: string, uri: string): boolean;
  /** True once the router is shutting down. */
  closing(): boolean;
  /** A client sent `initialize`: starts deferred backends (`startBackends: "with-first-client"`). */
  clientInitialized(): void;
  /** Forgets a closed session. */
  removeSession(sessionId: string): void;
}
