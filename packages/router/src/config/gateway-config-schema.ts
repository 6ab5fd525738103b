import { z } from "zod";
import { OverridesConfigSchema, ScanModeSchema } from "../overrides/tool-override-schema.js";
import { BackendCredentialsSchema, CredentialsConfigSchema } from "./credentials-config-schema.js";
import { AuditConfigSchema, ToolLimitsConfigSchema } from "./governance-config-schema.js";
import { ModernConfigSchema } from "./modern-config-schema.js";

const stringRecord = z.record(z.string(), z.string());
const globList = z.array(z.string().min(1));
const positiveMilliseconds = z.number().int().positive();

/** The `restart` block of a backend: `false` disables restarts. */
export const RestartConfigSchema = z.union([
  z.literal(false),
  z.object({
    enabled: z.boolean().optional(),
    initialDelayMs: z.number().int().nonnegative().optional(),
    maxDelayMs: z.number().int().nonnegative().optional(),
    multiplier: z.number().min(1).optional(),
    maxAttempts: z.number().int().nonnegative().optional(),
    resetAfterMs: z.number().int().nonnegative().optional(),
  }),
]);

/**
 * The `oauth` block of a remote backend: the gateway signs in to it (`patchbay-gateway login`) and
 * sends the stored access token. Without `clientId` or `clientMetadataUrl` the client registers
 * itself dynamically.
 */
export const BackendOAuthConfigSchema = z.object({
  /** A client registered with the authorization server beforehand. */
  clientId: z.string().min(1).optional(),
  /** Its secret (write `${VAR}`): a secret, masked in every output. */
  clientSecret: z.string().min(1).optional(),
  /** The https URL of this client's metadata document, used as its `client_id` when supported. */
  clientMetadataUrl: z.url({ protocol: /^https$/ }).optional(),
  /** Scopes to ask for; default: those the server's metadata lists. */
  scopes: z.array(z.string().min(1)).optional(),
  /** The loopback port the browser is sent back to; default: one the OS picks. */
  redirectPort: z.number().int().min(1).max(65_535).optional(),
});

/**
 * One entry of `mcpServers`: the shape AI clients use (`command`/`args`/`env`/`cwd` for a local
 * server, `url`/`headers`/`transport` for a remote one; `type` is accepted as another spelling of
 * `transport`), plus Patchbay keys.
 */
export const BackendConfigSchema = z.object({
  command: z.string().min(1).optional(),
  args: z.array(z.string()).optional(),
  env: stringRecord.optional(),
  cwd: z.string().min(1).optional(),
  url: z.url().optional(),
  headers: stringRecord.optional(),
  /** Sign in to this remote server with OAuth (see {@link BackendOAuthConfigSchema}). */
  oauth: BackendOAuthConfigSchema.optional(),
  transport: z.enum(["stdio", "http", "sse", "ws"]).optional(),
  type: z
    .enum(["stdio", "http", "sse", "ws", "websocket", "streamable-http", "streamableHttp"])
    .optional(),
  namespace: z.string().optional(),
  timeoutMs: positiveMilliseconds.optional(),
  maxTimeoutMs: positiveMilliseconds.optional(),
  maxMessageBytes: z.number().int().positive().optional(),
  isolation: z.enum(["shared", "per-session", "per-principal"]).optional(),
  /** Per-principal backends: the slots whose values come from the proxy's credential store. */
  credentials: BackendCredentialsSchema.optional(),
  tools: z.object({ allow: globList.optional(), deny: globList.optional() }).optional(),
  start: z.enum(["eager", "lazy"]).optional(),
  restart: RestartConfigSchema.optional(),
  disabled: z.boolean().optional(),
  protocolEra: z.enum(["auto", "legacy", "modern"]).optional(),
  /** Renames and reshapes its tools, keyed by the backend's own tool names. */
  overrides: OverridesConfigSchema.optional(),
});

/** `telemetry.otlp`: export spans and MCP metrics to an OpenTelemetry collector over OTLP/HTTP. */
export const OtlpConfigSchema = z.object({
  /** The collector's base URL; `/v1/traces` and `/v1/metrics` are added. */
  endpoint: z.url({ protocol: /^https?$/ }),
  /** Headers of every export (API keys): secrets, masked in `gateway_status` and logs. */
  headers: z.record(z.string().min(1), z.string()).optional(),
  /** `service.name` of the exported resource (default the app's name). */
  serviceName: z.string().min(1).optional(),
  /** OTLP's encoding (default `http/protobuf`). */
  protocol: z.enum(["http/protobuf", "http/json"]).optional(),
});

/** The `telemetry` block: where events go. */
export const TelemetryConfigSchema = z.object({
  /** How many events the in-memory ring buffer keeps (for `get_events`). */
  bufferSize: z.number().int().positive().optional(),
  /** A JSON Lines file that receives every event (rotated). */
  eventsFile: z.string().min(1).optional(),
  /** Rotate the events file past this size. */
  maxFileBytes: z.number().int().positive().optional(),
  /** Send spans to OpenTelemetry when an SDK is registered. */
  openTelemetry: z.boolean().optional(),
  /** Export spans and metrics over OTLP with the official SDK (loaded only when set). */
  otlp: OtlpConfigSchema.optional(),
});

/** A profile: a named subset of backends and tools that a client (or a proxy URL) is given. */
export const ProfileConfigSchema = z.object({
  /** Backend keys of `mcpServers` in the profile; all when absent. */
  backends: z.array(z.string().min(1)).optional(),
  /** Another spelling of `backends`. */
  servers: z.array(z.string().min(1)).optional(),
  /** Globs over exposed tool names (`github__*`); deny wins. */
  tools: z.object({ allow: globList.optional(), deny: globList.optional() }).optional(),
  description: z.string().optional(),
  /** Reshapes tools for this profile's clients, keyed by exposed names (after the backend's). */
  overrides: OverridesConfigSchema.optional(),
  /** Per-tool limits of the profile's clients (`tools`: globs over exposed names). */
  limits: z.object({ tools: ToolLimitsConfigSchema.optional() }).optional(),
});

/** The `pins` block: hashes of what backends publish, and what happens when one changes. */
export const PinsConfigSchema = z.object({
  file: z.string().min(1).optional(),
  onChange: z.enum(["keep", "hide"]).optional(),
  trustOnFirstUse: z.boolean().optional(),
  pinned: z
    .record(z.string().min(1), z.string().regex(/^[0-9a-f]{64}$/, "expected a SHA-256 in hex"))
    .optional(),
});

/**
 * The `limits` block as the router reads it: `tools`, the per-tool limits both apps honour. An app
 * adds its own keys to it with a config block of the same name (see `ConfigBlock`).
 */
export const RouterLimitsConfigSchema = z.object({
  tools: ToolLimitsConfigSchema.optional(),
});

/**
 * The whole config file of a gateway as the router reads it (before defaults); an app adds its own
 * top-level blocks with `parseGatewayConfig`'s `blocks`.
 */
export const GatewayConfigFileSchema = z.object({
  $schema: z.string().optional(),
  mcpServers: z.record(z.string().min(1), BackendConfigSchema),
  namespaceSeparator: z.string().optional(),
  maxNameLength: z.number().int().optional(),
  conflictPolicy: z.enum(["prefix", "priority", "error"]).optional(),
  pageSize: z.number().int().positive().max(10_000).optional(),
  telemetry: TelemetryConfigSchema.optional(),
  /** The description scanner: `off`, `warn` (default: log and show findings) or `withhold`. */
  scan: ScanModeSchema.optional(),
  profiles: z
    .record(
      z.string().regex(/^[A-Za-z0-9_.-]+$/, "profile names may only contain [A-Za-z0-9_.-]"),
      ProfileConfigSchema,
    )
    .optional(),
  /** Pinning of tool, prompt and resource template definitions (see the router README, "Pins"). */
  pins: PinsConfigSchema.optional(),
  /** One audit record per decision (both apps). */
  audit: AuditConfigSchema.optional(),
  /** Per-tool limits (both apps); an app may add keys of its own to the block. */
  limits: RouterLimitsConfigSchema.optional(),
  /** The modern front and task limits (the router's `modern` options). */
  modern: ModernConfigSchema.optional(),
  /** The store of per-principal credentials. */
  credentials: CredentialsConfigSchema.optional(),
});

/** The config file as written, keys optional. */
export type GatewayConfigFile = z.infer<typeof GatewayConfigFileSchema>;

/** One `mcpServers` entry as written. */
export type BackendConfigFile = z.infer<typeof BackendConfigSchema>;
