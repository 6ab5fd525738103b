import type { IncomingMessage } from "node:http";
import {
  headerValue,
  isModernRequest,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@patchbay/transport-http";
import type { Refusal } from "../admission/admission.js";

/** What a request path names on the HTTP gateway. */
export type GatewayRoute =
  | { readonly kind: "mcp" | "sse" | "messages" | "ws"; readonly profile: string | undefined }
  | { readonly kind: "index" | "healthz" | "readyz" | "metrics" | "resource-metadata" }
  | { readonly kind: "pins" | "pins-approve" };

/** The RFC 9728 well-known prefix of Protected Resource Metadata (OAuth). */
const RESOURCE_METADATA_PREFIX = "/.well-known/oauth-protected-resource";

const profilePattern = /^[A-Za-z0-9_.-]+$/;

/** A request target the URL parser would leave as it is: `/`, then letters, digits, `/`, `_`, `-`. */
const plainPath = /^\/(?![/\\])[A-Za-z0-9/_-]*$/;

/**
 * The path of a request's target (`request.url`), as `new URL(url, base).pathname` gives it: a
 * plain one (no query, dot, escape, backslash or leading `//`) is its own path, and every request
 * is spared a URL object.
 */
export function requestPath(url: string | undefined): string {
  const target = url ?? "/";
  return plainPath.test(target) ? target : new URL(target, "http://gateway").pathname;
}

/**
 * Maps a path to an endpoint: `/mcp[/<profile>]` (Streamable HTTP), `/sse[/<profile>]` (legacy
 * stream), `/messages[/<profile>]` (legacy POSTs), `/ws[/<profile>]` (WebSocket), `/healthz`,
 * `/readyz`, `/metrics`, `/pins` and `/pins/approve` (the operator's pin API), `/` (the index), `/.well-known/oauth-protected-resource[/...]` (OAuth
 * Protected Resource Metadata, whose rest the gateway's verifier reads); else undefined.
 */
export function parseGatewayPath(pathname: string): GatewayRoute | undefined {
  // The default profile's endpoints, asked for by nearly every request: one route each, made once.
  const known = DEFAULT_ROUTES.get(pathname);
  if (known !== undefined) return known;
  const path = pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
  if (path === "/") return { kind: "index" };
  if (path === RESOURCE_METADATA_PREFIX || path.startsWith(`${RESOURCE_METADATA_PREFIX}/`)) {
    return { kind: "resource-metadata" };
  }
  if (path === "/healthz" || path === "/readyz" || path === "/metrics") {
    return { kind: path.slice(1) as "healthz" | "readyz" | "metrics" };
  }
  if (path === "/pins") return { kind: "pins" };
  if (path === "/pins/approve") return { kind: "pins-approve" };
  const [, first, second, ...rest] = path.split("/");
  if (rest.length > 0 || !isSessionEndpoint(first)) return undefined;
  if (second === undefined) return { kind: first, profile: undefined };
  let profile: string;
  try {
    profile = decodeURIComponent(second);
  } catch {
    return undefined;
  }
  return profilePattern.test(profile) ? { kind: first, profile } : undefined;
}

/** The routes of `/mcp`, `/sse`, `/messages` and `/ws` (the default profile), frozen and shared. */
const DEFAULT_ROUTES: ReadonlyMap<string, GatewayRoute> = new Map(
  (["mcp", "sse", "messages", "ws"] as const).map((kind) => [
    `/${kind}`,
    Object.freeze({ kind, profile: undefined }),
  ]),
);

function isSessionEndpoint(name: string | undefined): name is "mcp" | "sse" | "messages" | "ws" {
  return name === "mcp" || name === "sse" || name === "messages" || name === "ws";
}

/** Which endpoint serves an entry, decided once per request. */
export type EntryKind =
  /** A POST without a session whose `Accept` does not name `text/event-stream`. */
  | "plain"
  /** A request without a session naming a modern (2026-07-28) revision: it opens no session. */
  | "modern"
  /** A Streamable HTTP request that may open a session (an `initialize` POST). */
  | "new-session"
  /** A Streamable HTTP request naming its session (or a GET or DELETE without one, refused there). */
  | "session"
  /** GET `/sse`: opens a legacy session. */
  | "sse-stream"
  /** POST `/messages`: a legacy session's message. */
  | "sse-message"
  /** An upgrade to `/ws`: opens a WebSocket session. */
  | "websocket";

/** An MCP endpoint's route (`/mcp`, `/sse`, `/messages`, `/ws`). */
export type SessionRoute = Extract<GatewayRoute, { profile: string | undefined }>;

/**
 * The kind of an admitted entry to an MCP endpoint, or the refusal of its method (405). The modern
 * rule is transport-http's own, so the gateway and the transport cannot disagree on it.
 */
export function entryKind(
  route: SessionRoute,
  request: IncomingMessage,
  sessionId: string | undefined,
): EntryKind | Refusal {
  switch (route.kind) {
    case "ws":
      return "websocket";
    case "sse":
      return request.method === "GET" ? "sse-stream" : methodNotAllowed(request, "GET");
    case "messages":
      return request.method === "POST" ? "sse-message" : methodNotAllowed(request, "POST");
    case "mcp":
      return streamableKind(request, sessionId);
  }
}

function streamableKind(request: IncomingMessage, sessionId: string | undefined): EntryKind {
  if (sessionId !== undefined) return "session";
  const post = request.method === "POST";
  if (post && !namesEventStream(headerValue(request, "accept"))) return "plain";
  if (isModernRequest(request, SUPPORTED_PROTOCOL_VERSIONS)) return "modern";
  return post ? "new-session" : "session";
}

/** True for the kinds that open a session, which count against `maxSessions`. */
export function opensSession(kind: EntryKind): boolean {
  return kind === "new-session" || kind === "sse-stream" || kind === "websocket";
}

/** 405 with `Allow`. */
export function methodNotAllowed(request: IncomingMessage, allow: string): Refusal {
  return {
    status: 405,
    message: `method ${request.method} is not allowed here`,
    headers: { allow },
  };
}

/**
 * True when `Accept` names `text/event-stream` itself: Streamable HTTP clients always do, while plain
 * JSON-RPC clients send none, `application/json` or curl's wildcard.
 */
function namesEventStream(accept: string | undefined): boolean {
  return (accept ?? "")
    .split(",")
    .some((part) => part.split(";")[0]?.trim().toLowerCase() === "text/event-stream");
}
