import type { AuditLog } from "@patchbay/telemetry";
import type { Refusal } from "./admission.js";
import type { RefusedRequest } from "./frame-admission.js";

/** Where a refused request was going, for its audit record. */
export interface RefusedEntry {
  /** The HTTP method and path, such as `POST /mcp/team` (the body is never read for a refusal). */
  readonly method: string;
  readonly profile: string | undefined;
  readonly durationMs: number;
}

/** The audit `reason` of an admission refusal. */
export function refusalReason(refusal: Refusal): string {
  if (refusal.status === 429) return "rate_limited";
  if (refusal.headers?.["www-authenticate"] !== undefined) return "auth";
  if (refusal.status === 403) return "origin";
  if (refusal.status === 404) return "not_found";
  return "unavailable";
}

/**
 * Records a WebSocket frame that admission refused after the upgrade, as a `denied` decision: a
 * batch over `maxBatchSize` (method `(batch)`, reason `batch_too_large`) or one request its rate
 * limits refused (its JSON-RPC method, with the tool and its arguments for a `tools/call`).
 */
export function auditRefusedFrame(
  audit: AuditLog,
  refused: RefusedRequest,
  client: { readonly principal: string; readonly profile: string | undefined },
): void {
  const { request, refusal } = refused;
  const params = request?.params as { name?: unknown; arguments?: unknown } | undefined;
  const call =
    request?.method === "tools/call" && typeof params?.name === "string"
      ? { tool: params.name, arguments: params.arguments }
      : {};
  audit.record({
    principal: client.principal,
    ...(client.profile === undefined ? {} : { profile: client.profile }),
    method: request?.method ?? "(batch)",
    ...call,
    outcome: "denied",
    reason: request === undefined ? "batch_too_large" : refusalReason(refusal),
    durationMs: 0,
  });
}

/** Records a request that admission refused as a `denied` decision. */
export function auditRefusal(audit: AuditLog, refusal: Refusal, entry: RefusedEntry): void {
  audit.record({
    principal: refusal.principal ?? "anonymous",
    ...(entry.profile === undefined ? {} : { profile: entry.profile }),
    method: entry.method,
    outcome: "denied",
    reason: refusalReason(refusal),
    durationMs: entry.durationMs,
  });
}
