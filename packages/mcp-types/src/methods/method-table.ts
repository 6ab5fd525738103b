import {
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSIONS,
  PROTOCOL_VERSIONS,
  type ProtocolVersion,
} from "../versions.js";

/** Who sends a message: the client, the server, or either side. */
export type MethodDirection = "client-to-server" | "server-to-client" | "both";

/** Whether a method is a request (expects a response) or a notification. */
export type MethodKind = "request" | "notification";

/** What the specification says about one method across revisions. */
export interface MethodInfo {
  /** Request or notification. */
  readonly kind: MethodKind;
  /** Who sends it (in the newest revision that has it; see the per-revision descriptor). */
  readonly direction: MethodDirection;
  /** The revisions whose schema defines it, oldest first. */
  readonly revisions: readonly ProtocolVersion[];
}

const ALL = PROTOCOL_VERSIONS;
const LEGACY = LEGACY_PROTOCOL_VERSIONS;
const MODERN = MODERN_PROTOCOL_VERSIONS;
const FROM_2025_06_18_LEGACY = ["2025-06-18", "2025-11-25"] as const;
const ONLY_2025_11_25 = ["2025-11-25"] as const;

/**
 * Every method of every revision. Sampling, elicitation and roots stay in the modern revision only
 * as `inputRequests` of an `InputRequiredResult`, never as wire requests, so they are legacy here.
 */
export const METHOD_TABLE = {
  initialize: { kind: "request", direction: "client-to-server", revisions: LEGACY },
  "notifications/initialized": {
    kind: "notification",
    direction: "client-to-server",
    revisions: LEGACY,
  },
  ping: { kind: "request", direction: "both", revisions: LEGACY },
  "notifications/cancelled": { kind: "notification", direction: "both", revisions: ALL },
  "notifications/progress": { kind: "notification", direction: "both", revisions: ALL },
  "tools/list": { kind: "request", direction: "client-to-server", revisions: ALL },
  "tools/call": { kind: "request", direction: "client-to-server", revisions: ALL },
  "notifications/tools/list_changed": {
    kind: "notification",
    direction: "server-to-client",
    revisions: ALL,
  },
  "resources/list": { kind: "request", direction: "client-to-server", revisions: ALL },
  "resources/templates/list": { kind: "request", direction: "client-to-server", revisions: ALL },
  "resources/read": { kind: "request", direction: "client-to-server", revisions: ALL },
  "resources/subscribe": { kind: "request", direction: "client-to-server", revisions: LEGACY },
  "resources/unsubscribe": { kind: "request", direction: "client-to-server", revisions: LEGACY },
  "notifications/resources/list_changed": {
    kind: "notification",
    direction: "server-to-client",
    revisions: ALL,
  },
  "notifications/resources/updated": {
    kind: "notification",
    direction: "server-to-client",
    revisions: ALL,
  },
  "prompts/list": { kind: "request", direction: "client-to-server", revisions: ALL },
  "prompts/get": { kind: "request", direction: "client-to-server", revisions: ALL },
  "notifications/prompts/list_changed": {
    kind: "notification",
    direction: "server-to-client",
    revisions: ALL,
  },
  "completion/complete": { kind: "request", direction: "client-to-server", revisions: ALL },
  "logging/setLevel": { kind: "request", direction: "client-to-server", revisions: LEGACY },
  "notifications/message": { kind: "notification", direction: "server-to-client", revisions: ALL },
  "sampling/createMessage": { kind: "request", direction: "server-to-client", revisions: LEGACY },
  "roots/list": { kind: "request", direction: "server-to-client", revisions: LEGACY },
  "notifications/roots/list_changed": {
    kind: "notification",
    direction: "client-to-server",
    revisions: LEGACY,
  },
  "elicitation/create": {
    kind: "request",
    direction: "server-to-client",
    revisions: FROM_2025_06_18_LEGACY,
  },
  "notifications/elicitation/complete": {
    kind: "notification",
    direction: "server-to-client",
    revisions: ONLY_2025_11_25,
  },
  "tasks/get": { kind: "request", direction: "both", revisions: ONLY_2025_11_25 },
  "tasks/result": { kind: "request", direction: "both", revisions: ONLY_2025_11_25 },
  "tasks/list": { kind: "request", direction: "both", revisions: ONLY_2025_11_25 },
  "tasks/cancel": { kind: "request", direction: "both", revisions: ONLY_2025_11_25 },
  "notifications/tasks/status": {
    kind: "notification",
    direction: "both",
    revisions: ONLY_2025_11_25,
  },
  "server/discover": { kind: "request", direction: "client-to-server", revisions: MODERN },
  "subscriptions/listen": { kind: "request", direction: "client-to-server", revisions: MODERN },
  "notifications/subscriptions/acknowledged": {
    kind: "notification",
    direction: "server-to-client",
    revisions: MODERN,
  },
} as const satisfies Record<string, MethodInfo>;

/** A method name defined by some revision. */
export type McpMethod = keyof typeof METHOD_TABLE;

/** Whether `method` is defined by any revision. */
export function isMcpMethod(method: string): method is McpMethod {
  return Object.hasOwn(METHOD_TABLE, method);
}

/** The revisions that define `method` (empty for an unknown method). */
export function getMethodRevisions(method: string): readonly ProtocolVersion[] {
  return isMcpMethod(method) ? METHOD_TABLE[method].revisions : [];
}
