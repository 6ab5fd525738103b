import { DEFAULT_QUERY_LIMIT, MAX_QUERY_LIMIT, type TelemetryEvent } from "@patchbay/telemetry";
import type { Backend } from "../backends/backend.js";
import type { BackendPool } from "../backends/backend-pool.js";
import { buildCatalogue, type Catalogue } from "../catalogue/build-catalogue.js";
import { redactGatewayConfig } from "../config/redact-config.js";
import { describeFlagged, shapingOf } from "../overrides/catalogue-shaping.js";
import type { RouterPins } from "../pins/pin-guard.js";
import { resolvePinsConfig } from "../pins/pins-config.js";
import { GATEWAY_TOOLS } from "../sessions/gateway-tools.js";
import type { RouterSession } from "../sessions/router-session.js";
import { namespacesOf, type RouterState } from "./router-state.js";

/** What `describeRouter` reads. */
export interface RouterParts {
  readonly state: RouterState;
  readonly pool: BackendPool;
  readonly sessions: ReadonlyMap<string, RouterSession>;
  readonly uptimeMs: number;
  readonly pins?: RouterPins;
}

/**
 * What `gateway_status` answers (and `router.status()` returns): the gateway (name, version,
 * uptime, sessions, redacted config, conflicts) and each backend, as session `sessionId` sees them
 * when one is given, else the shared backends as every session sees them.
 */
export function describeRouter(parts: RouterParts, sessionId?: string): Record<string, unknown> {
  const { state, pool, sessions } = parts;
  const session = sessionId === undefined ? undefined : sessions.get(sessionId);
  const visible = session ? session.backends() : pool.sharedBackends();
  const catalogue = session ? session.catalogue() : sharedCatalogue(state, pool);
  const { conflicts, flagged } = catalogue;
  const scoped = session !== undefined && !session.viewer.operator;
  return {
    gateway: {
      name: state.serverInfo.name,
      version: state.serverInfo.version,
      uptime_ms: parts.uptimeMs,
      sessions: scoped ? sessionsOfOwner(sessions, session).length : sessions.size,
      config: scoped ? configSeenBy(state, session) : redactGatewayConfig(state.config),
      conflicts,
      flagged_descriptions: describeFlagged(flagged),
      ...(parts.pins === undefined
        ? {}
        : { pins: pinsSeenBy(state, parts.pins, scoped ? visible : undefined) }),
    },
    backends: Object.fromEntries(
      visible.map((backend) => [
        backend.name,
        describeBackend(backend, session ? [session] : [...sessions.values()], session),
      ]),
    ),
  };
}

/**
 * The pins block of the status: the policy in force and each withheld definition. A session that
 * is not the operator's sees only its backends' withheld items, without the diff: the withheld text
 * is the backend's, not approved, and a model reads this result.
 */
function pinsSeenBy(
  state: RouterState,
  pins: RouterPins,
  visible: readonly Backend[] | undefined,
): Record<string, unknown> {
  const config = resolvePinsConfig(state.config.pins);
  const seen = visible === undefined ? undefined : new Set(visible.map((backend) => backend.name));
  const withheld = pins
    .withheld(seen)
    .map((item) => (seen === undefined ? item : { ...item, diff: undefined }));
  return {
    on_change: config.onChange,
    trust_on_first_use: config.trustOnFirstUse,
    withheld,
  };
}

/**
 * The config as a session that is not the operator's sees it: its own profile and the backends it
 * sees, nothing of other profiles, other backends or the event log's file.
 */
function configSeenBy(state: RouterState, session: RouterSession): Record<string, unknown> {
  const seen = new Set(session.backends().map((backend) => backend.name));
  const profile = session.profile;
  const own = profile === undefined ? undefined : state.config.profiles[profile];
  const { telemetry: _file, ...config } = redactGatewayConfig({
    ...state.config,
    backends: state.config.backends.filter((backend) => seen.has(backend.name)),
    profiles: own === undefined || profile === undefined ? {} : { [profile]: own },
  });
  return config;
}

/** The live sessions of `session`'s owner (only `session` itself when it has none). */
function sessionsOfOwner(
  sessions: ReadonlyMap<string, RouterSession>,
  session: RouterSession,
): RouterSession[] {
  const owner = session.viewer.owner;
  if (owner === undefined) return [session];
  return [...sessions.values()].filter((other) => other.viewer.owner === owner);
}

/**
 * What `get_events` answers session `sessionId` for `query`: every matching event for the
 * operator; for anyone else only the events of its owner's live sessions and the lifecycle events
 * (`backend.*`) of the backends it sees, most recent first, at most the query's `limit`.
 */
export function eventsSeenBy(
  parts: Pick<RouterParts, "state" | "sessions">,
  sessionId: string,
  query: Readonly<Record<string, unknown>>,
): TelemetryEvent[] {
  const { telemetry } = parts.state;
  // Asked as given first: a bad query throws its own error, and the operator's answer is this.
  const asked = telemetry.query(query);
  const session = parts.sessions.get(sessionId);
  if (session?.viewer.operator === true) return asked;
  if (session === undefined) return [];
  const own = new Set(sessionsOfOwner(parts.sessions, session).map((other) => other.id));
  const seen = new Set(session.backends().map((backend) => backend.name));
  const visible = (event: TelemetryEvent) => {
    const of = event.data.session;
    if (typeof of === "string") return own.has(of);
    return (
      event.event_type.startsWith("backend.") &&
      event.backend !== undefined &&
      seen.has(event.backend)
    );
  };
  const limit = typeof query.limit === "number" ? query.limit : DEFAULT_QUERY_LIMIT;
  return telemetry
    .query({ ...query, limit: MAX_QUERY_LIMIT })
    .filter(visible)
    .slice(0, limit);
}

/** The catalogue of the shared backends, as a session without a profile would see it. */
export function sharedCatalogue(state: RouterState, pool: BackendPool): Catalogue {
  const listings = pool
    .sharedBackends()
    .flatMap((backend) => (backend.listing ? [backend.listing] : []));
  return buildCatalogue(listings, {
    codec: state.codec,
    conflictPolicy: state.config.conflictPolicy,
    reservedToolNames: GATEWAY_TOOLS.map((tool) => tool.name),
    namespaces: namespacesOf(state.config),
    shaping: shapingOf(state.config),
  });
}

/**
 * One backend as `gateway_status` shows it: status, namespace, counts, transport, negotiated
 * revision, its capabilities and those relayed to it, restarts, last error, uptime, and the
 * server-to-client requests refused for `sessions`. `viewer`, when given, counts the tools that
 * session's catalogue exposes (after conflicts and filters).
 */
export function describeBackend(
  backend: Backend,
  sessions: readonly RouterSession[],
  viewer?: RouterSession,
): Record<string, unknown> {
  const listing = backend.listing;
  const result = backend.initializeResult;
  const refused: Record<string, number> = {};
  for (const session of sessions) {
    for (const [method, count] of session.refused.get(backend.name) ?? []) {
      refused[method] = (refused[method] ?? 0) + count;
    }
  }
  const exposedTools = viewer?.catalogue().toolNamesOf(backend.name).length;
  return {
    status: backend.status,
    namespace: backend.config.namespace,
    tool_count: exposedTools ?? listing?.tools?.length ?? 0,
    prompt_count: listing?.prompts?.length ?? 0,
    resource_count: listing?.resources?.length ?? 0,
    transport: backend.config.transport,
    isolation: backend.config.isolation,
    start: backend.config.start,
    protocol_version: result?.protocolVersion ?? null,
    server_info: result?.serverInfo ?? null,
    capabilities: result?.capabilities ?? null,
    relayed_capabilities: backend.declaredCapabilities ?? null,
    restarts: backend.restarts,
    last_error: backend.lastError ?? null,
    uptime_ms: backend.uptimeMs() ?? null,
    refused_requests: refused,
  };
}
