import { z } from "zod";

const positiveInteger = z.number().int().positive();
const nonNegativeInteger = z.number().int().nonnegative();

/**
 * The `modern` block: the router's `modern` options that a file can set (the modern front's held
 * calls and callers, caching hints, and the limits of the task table both eras share); the
 * request-state key and the replicas' hooks come from the app that runs the router.
 */
export const ModernConfigSchema = z.object({
  heldCallTimeoutMs: positiveInteger.optional(),
  maxHeldCalls: positiveInteger.optional(),
  maxCallers: positiveInteger.optional(),
  inputGatherMs: nonNegativeInteger.optional(),
  caching: z
    .object({ ttlMs: nonNegativeInteger, cacheScope: z.enum(["public", "private"]) })
    .optional(),
  tasks: z
    .object({
      maxTasks: positiveInteger.optional(),
      maxTasksPerCaller: positiveInteger.optional(),
      maxTtlMs: positiveInteger.optional(),
    })
    .optional(),
});

/** The `modern` block as written. */
export type ModernConfig = z.infer<typeof ModernConfigSchema>;
