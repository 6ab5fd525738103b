import { AUDIT_ARGUMENT_POLICIES } from "@patchbay/telemetry";
import { z } from "zod";

const positiveInteger = z.number().int().positive();

/** The limit of one tool glob: calls per minute and calls at once, per principal and tool. */
export const ToolLimitConfigSchema = z
  .object({
    perMinute: positiveInteger.optional(),
    concurrent: positiveInteger.optional(),
  })
  .refine((limit) => limit.perMinute !== undefined || limit.concurrent !== undefined, {
    message: 'expected "perMinute", "concurrent" or both',
  });

/** `limits.tools` (top level or in a profile): globs over exposed tool names to their limits. */
export const ToolLimitsConfigSchema = z.record(z.string().min(1), ToolLimitConfigSchema);

/** The `audit` block: one JSON record per decision, to a rotated file or stdout (`"-"`). */
export const AuditConfigSchema = z.object({
  /** The audit file (relative to the config file), or `"-"` for stdout (the proxy only). */
  file: z.string().min(1).optional(),
  /** What records say of arguments: `none`, `names` (default), `hashed` or `full`. */
  arguments: z.enum(AUDIT_ARGUMENT_POLICIES).optional(),
  /** Rotate the file past this size (default 10 MiB). */
  maxBytes: positiveInteger.optional(),
  /** Rotated files kept (default 5). */
  maxFiles: z.number().int().nonnegative().optional(),
});

/** One tool glob's limit as written. */
export type ToolLimitConfig = z.infer<typeof ToolLimitConfigSchema>;
/** `limits.tools` as written. */
export type ToolLimitsConfig = z.infer<typeof ToolLimitsConfigSchema>;
/** The `audit` block as written. */
export type AuditConfig = z.infer<typeof AuditConfigSchema>;
