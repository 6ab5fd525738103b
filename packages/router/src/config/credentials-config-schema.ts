import { z } from "zod";

/**
 * `credentials` of a per-principal backend: the named slots whose values come, per principal,
 * from the proxy's credential store. `headers` are templates (`"Bearer {{token}}"`) of a URL
 * backend; `env` names environment variables of a command backend (each its own slot).
 * `setByUser: true` lets each principal store its own values on a one-time link; by default only
 * the operator stores them.
 */
export const BackendCredentialsSchema = z.strictObject({
  headers: z.record(z.string().min(1), z.string().min(1)).optional(),
  env: z
    .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "expected an environment variable name"))
    .min(1)
    .optional(),
  setByUser: z.boolean().optional(),
});

/** The top-level `credentials` block of the proxy: where its credential store is kept. */
export const CredentialsConfigSchema = z.strictObject({
  /** The encrypted store (relative to the config file's folder). */
  file: z.string().min(1),
  /**
   * The origin browsers reach the proxy at, for the connect links of per-principal backends with
   * an `oauth` block (default: the address it listens on).
   */
  publicUrl: z.url({ protocol: /^https?$/ }).optional(),
});

/** A backend's credential slots as written. */
export type BackendCredentials = z.infer<typeof BackendCredentialsSchema>;

/** The proxy's `credentials` block. */
export type CredentialsConfig = z.infer<typeof CredentialsConfigSchema>;
