/** What the gateway does when two backends (or a backend and the gateway) claim one exposed name. */
export type ConflictPolicy = "prefix" | "priority" | "error";

/** The conflict policy unless configured otherwise. */
export const DEFAULT_CONFLICT_POLICY: ConflictPolicy = "prefix";

/** The kinds of catalogue entry that can collide. */
export type CatalogueKind = "tool" | "prompt" | "resource" | "resourceTemplate";

/**
 * How one conflict was resolved:
 * - `prefixed`: the later claimant was exposed under its backend key instead (policy `prefix`);
 * - `rewritten`: every claimant's resource URI was rewritten to `patchbay://<namespace>/...`
 *   (`ui://<namespace>+...` for an MCP Apps `ui://` URI);
 * - `dropped`: the first claimant kept the name, the later one is not exposed (policy `priority`);
 * - `refused`: the name lies in another backend's namespace (an unprefixed backend publishing
 *   `victim__echo`, or a URI in the rewritten form of its namespace, `ui://victim+...`), so it is
 *   never exposed, whatever the policy;
 * - `rejected`: as `dropped` or `refused`, and startup fails (policy `error`).
 */
export type ConflictResolution = "prefixed" | "rewritten" | "dropped" | "refused" | "rejected";

/** One name claimed by more than one source, and what became of it. */
export interface ConflictReport {
  readonly kind: CatalogueKind;
  /** The contested exposed name (or URI). */
  readonly name: string;
  /** Who claimed it, in config order; `gateway` stands for the gateway's own tools. */
  readonly claimants: readonly string[];
  /** Who kept the contested name, if anyone did. */
  readonly winner?: string;
  readonly resolution: ConflictResolution;
  /** A sentence for logs and `gateway_status`. */
  readonly message: string;
}

/** Startup failed because policy `error` found conflicts. Local error: string code, the reports. */
export class CatalogueConflictError extends Error {
  /** Always `CATALOGUE_CONFLICT`. */
  readonly code = "CATALOGUE_CONFLICT";
  /** Every conflict found. */
  readonly conflicts: readonly ConflictReport[];
  constructor(conflicts: readonly ConflictReport[]) {
    super(
      `Conflicting names with conflictPolicy "error":\n${conflicts.map((conflict) => `- ${conflict.message}`).join("\n")}`,
    );
    this.name = "CatalogueConflictError";
    this.conflicts = conflicts;
  }
}
