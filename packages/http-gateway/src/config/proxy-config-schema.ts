import { ToolLimitsConfigSchema } from "@patchbay/router";
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
    /** Sees every backend, profile, session and event in `gateway_status` and `get_events`. */
    operator: z.boolean().optional(),
  })
  .refine((entry) => (entry.token === undefined) !== (entry.sha256 === undefined), {
    message: 'expected either "token" or "sha256"',
  });

/** The `auth` block of the HTTP proxy. */
export const AuthConfigSchema = z.object({
  tokens: z.array(AuthTokenConfigSchema).optional(),
  /**
   * OAuth 2.1 sign-in (the proxy as a resource server): `issuer`, `publicUrl`, `scopes` and their
   * options, validated by `@patchbay/http-gateway`'s `parseOAuthConfig`, which names a bad key.
   */
  oauth: z.record(z.string(), z.unknown()).optional(),
  /** Serve without auth even when bound to a non-loopback address. */
  disabled: z.boolean().optional(),
});

const positiveInteger = z.number().int().positive();

/**
 * The keys the HTTP proxy adds to the router's `limits` block (whose `tools`, the per-tool limits,
 * holds in both apps).
 */
export const ProxyLimitsConfigSchema = z.object({
  requestsPerMinute: positiveInteger.optional(),
  maxBodyBytes: positiveInteger.optional(),
  maxSessions: positiveInteger.optional(),
  maxSessionsPerIdentity: positiveInteger.optional(),
  sessionIdleTtlMs: positiveInteger.optional(),
  requestTimeoutMs: positiveInteger.optional(),
  maxResultBytes: positiveInteger.optional(),
  maxResponseBytes: positiveInteger.optional(),
  maxBatchSize: positiveInteger.optional(),
});

/** The `limits` block of the HTTP proxy as a whole: the router's `tools` and the proxy's keys. */
export const LimitsConfigSchema = z.object({
  tools: ToolLimitsConfigSchema.optional(),
  ...ProxyLimitsConfigSchema.shape,
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
  /** Mark the dashboard's login cookie `Secure` (clients reach the proxy over HTTPS). */
  secureCookie: z.boolean().optional(),
  /**
   * SSE keep-alive comment interval (ms), and how long a Streamable HTTP POST may wait for its
   * answer before that answer becomes an SSE stream. Default 15000; 0: no keep-alives, and a POST
   * is answered as one JSON body unless a related message comes before its response.
   */
  keepAliveIntervalMs: z.number().int().min(0).max(600_000).optional(),
});

/**
 * The `cluster` block of the HTTP proxy: replicas that share sessions, resumable events and rate
 * limits through one Redis.
 */
export const ClusterConfigSchema = z
  .object({
    /** `redis://[user:password@]host:port[/db]`, `rediss://…` (TLS) or `unix:///path/to/redis.sock`. */
    redis: z
      .string()
      .regex(
        /^(rediss?:\/\/[^\s]+|unix:\/\/\/[^\s]+)$/,
        "expected redis://host:port, rediss://… or unix:///path",
      ),
    /**
     * The secret every replica shares (at least 32 characters; `openssl rand -base64 32`), usually
     * `"${PATCHBAY_CLUSTER_SECRET}"`: what replicas exchange through Redis is sealed with it, so
     * Redis access alone cannot act as a replica. Default: the `PATCHBAY_CLUSTER_SECRET`
     * environment variable; a clustered proxy refuses to start without one.
     */
    secret: z
      .string()
      .min(32, "must be at least 32 characters (openssl rand -base64 32)")
      .optional(),
    /** Secrets still accepted while a new `secret` rolls out to every replica (never used to seal). */
    previousSecrets: z
      .array(z.string().min(32, "must be at least 32 characters (openssl rand -base64 32)"))
      .max(4)
      .optional(),
    /** This replica's name in Redis keys, logs and metrics; default `<hostname>-<pid>`. */
    replicaId: z
      .string()
      .regex(
        /^[A-Za-z0-9_.-]{1,64}$/,
        "replica ids may only contain [A-Za-z0-9_.-], 1 to 64 characters",
      )
      .optional(),
    /**
     * How often each replica beats (ms); a replica killed without a word counts as gone at the next
     * beat of any other, which then answers the calls it held. Default 2000.
     */
    heartbeatIntervalMs: z.number().int().min(50).max(60_000).optional(),
    /**
     * How long a replica that stopped beating but may hold its Redis connection (cut off, frozen)
     * still counts as live (ms). Default three intervals; at least one interval.
     */
    heartbeatTimeoutMs: z.number().int().min(50).max(600_000).optional(),
  })
  .refine(
    (cluster) =>
      cluster.heartbeatTimeoutMs === undefined ||
      cluster.heartbeatTimeoutMs >= (cluster.heartbeatIntervalMs ?? 2000),
    {
      path: ["heartbeatTimeoutMs"],
      message: "must be at least heartbeatIntervalMs (default 2000)",
    },
  );

/** The `auth` block as written. */
export type AuthConfig = z.infer<typeof AuthConfigSchema>;
/** The `limits` block as written. */
export type LimitsConfig = z.infer<typeof LimitsConfigSchema>;
/** The `http` block as written. */
export type HttpConfig = z.infer<typeof HttpConfigSchema>;
/** The `cluster` block as written. */
export type ClusterConfig = z.infer<typeof ClusterConfigSchema>;
