import { z } from "zod";

const profileName = z.string().min(1);

/** One bearer token of the HTTP proxy: its plain value (`${ENV}` allowed) or its SHA-256 in hex. */
export const AuthTokenConfigSchema = z
  .object({
    /** Who holds it; shown in logs instead of the token. */
    name: z.string().min(1),
    token: z.string().min(16, "tokens must have at least 16 characters").optional(),
    sha256: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, "expected 64 hex digits (the SHA-256 of the token)")
      .optional(),
    /** Profiles the token may use; `"*"` is every profile and the default endpoint. */
    profiles: z.array(profileName).min(1).optional(),
  })
  .refine((entry) => (entry.token === undefined) !== (entry.sha256 === undefined), {
    message: 'expected either "token" or "sha256"',
  });

/** The `auth` block of the HTTP proxy. */
export const AuthConfigSchema = z.object({
  tokens: z.array(AuthTokenConfigSchema).optional(),
  /** Serve without auth even when bound to a non-loopback address. */
  disabled: z.boolean().optional(),
});

const positiveInteger = z.number().int().positive();

/** The `limits` block of the HTTP proxy. */
export const LimitsConfigSchema = z.object({
  requestsPerMinute: positiveInteger.optional(),
  maxBodyBytes: positiveInteger.optional(),
  maxSessions: positiveInteger.optional(),
  sessionIdleTtlMs: positiveInteger.optional(),
  requestTimeoutMs: positiveInteger.optional(),
  maxResultBytes: positiveInteger.optional(),
  maxBatchSize: positiveInteger.optional(),
});

const hostList = z.union([z.literal("any"), z.array(z.string().min(1))]);

/** The `http` block of the HTTP proxy: DNS-rebinding lists and the reverse proxy in front. */
export const HttpConfigSchema = z.object({
  /** Accepted `Host` values (`name` or `name:port`), or `"any"`. */
  allowedHosts: hostList.optional(),
  /** Accepted `Origin` values (full origins), or `"any"`. */
  allowedOrigins: hostList.optional(),
  /** Take the client address from `X-Forwarded-For` (only behind a reverse proxy that sets it). */
  trustProxy: z.boolean().optional(),
});

/** The `auth` block as written. */
export type AuthConfig = z.infer<typeof AuthConfigSchema>;
/** The `limits` block as written. */
export type LimitsConfig = z.infer<typeof LimitsConfigSchema>;
/** The `http` block as written. */
export type HttpConfig = z.infer<typeof HttpConfigSchema>;
