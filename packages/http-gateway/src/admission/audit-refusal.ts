import type { AuditLog } from "@patchbay/telemetry";
import type { Refusal } from "./admission.js";

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
