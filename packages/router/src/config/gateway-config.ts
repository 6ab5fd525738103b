import type { ConflictPolicy } from "../catalogue/conflict.js";
import type { RestartPolicyOptions } from "../lifecycle/restart-policy.js";
import type { ModernFrontOptions } from "../modern/modern-settings.js";
import type { OverridesConfig, ScanMode } from "../overrides/tool-override-schema.js";
import type { PinsConfig } from "../pins/pins-config.js";
import type { BackendCredentials, CredentialsConfig } from "./credentials-config-schema.js";
import type { AuditConfig, ToolLimitsConfig } from "./governance-config-schema.js";

/** The per-request timeout of a backend unless configured otherwise (60 s; the router README, "Router semantics"). */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** The hard maximum of one request even while it reports progress, unless configured otherwise. */
export const DEFAULT_MAX_TIMEOUT_MS = 600_000;

/** What every backend config has, whatever its transport. */
export interface BackendConfigCommon {
  /** The key of the entry in `mcpServers`. */
  readonly name: string;
  /** The prefix of its tool and prompt names; `""` exposes them unprefixed. */
  readonly namespace: string;
  readonly timeoutMs: number;
  readonly maxTimeoutMs: number;
  /**
   * `shared`: one backend for all clients; `per-session`: one per client session;
   * `per-principal`: one per principal, opened with that principal's `credentials`.
   */
  readonly isolation: "shared" | "per-session" | "per-principal";
  /** The credential slots of a per-principal backend (values from the credential store). */
  readonly credentials?: BackendCredentials;
  readonly tools: { readonly allow?: readonly string[]; readonly deny?: readonly string[] };
  /** `eager`: start with the gateway; `lazy`: start on first use. */
  readonly start: "eager" | "lazy";
  readonly restart: RestartPolicyOptions;
  /** A disabled backend is kept in the config but never started. */
  readonly disabled: boolean;
  /**
   * The MCP era to speak to it: `auto` (`server/discover` first, `initialize` when the answer
   * shows a legacy server), `legacy` (`initialize` only) or `modern` (2026-07-28 only). Unset:
   * `initialize`, and 2026-07-28 from then on when the backend refuses it naming only modern
   * revisions (-32022).
   */
  readonly protocolEra?: "auto" | "legacy" | "modern";
  /** Tool overrides keyed by the backend's own tool names (the router README, "Overrides"). */
  readonly overrides?: OverridesConfig;
}

/** A backend the gateway spawns and talks to over stdio. */
export interface StdioBackendConfig extends BackendConfigCommon {
  readonly transport: "stdio";
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /**
   * Longest message (line) accepted from the backend, in bytes; a response over it fails its call
   * at once with -32007. Default: transport-stdio's `maxLineBytes` (64 MiB).
   */
  readonly maxMessageBytes?: number;
}

/** How the gateway signs in to a remote backend with OAuth (the `oauth` block of its entry). */
export interface BackendOAuthConfig {
  readonly clientId?: string;
  /** A secret: masked in every output. */
  readonly clientSecret?: string;
  readonly clientMetadataUrl?: string;
  readonly scopes?: readonly string[];
  readonly redirectPort?: number;
}

/**
 * A remote backend reached over Streamable HTTP (`http`), legacy HTTP+SSE (`sse`), WebSocket (`ws`,
 * the transport of every `ws://` or `wss://` URL), or `auto`: the default for an http(s) `url`
 * without `transport`, Streamable HTTP falling back to HTTP+SSE when the server answers 4xx (MCP
 * 2025-03-26, backwards compatibility).
 */
export interface RemoteBackendConfig extends BackendConfigCommon {
  readonly transport: "http" | "sse" | "ws" | "auto";
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Sign in with OAuth; the access token is sent with every request (not over `ws`). */
  readonly oauth?: BackendOAuthConfig;
}

/** One backend, validated and with defaults applied. */
export type BackendConfig = StdioBackendConfig | RemoteBackendConfig;

/** An OTLP/HTTP collector that spans and MCP metrics are exported to. */
export interface OtlpConfig {
  readonly endpoint: string;
  /** Secrets (API keys): never shown, masked in every output. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly serviceName?: string;
  readonly protocol?: "http/protobuf" | "http/json";
}

/** Where telemetry goes. */
export interface TelemetryConfig {
  readonly bufferSize?: number;
  readonly eventsFile?: string;
  readonly maxFileBytes?: number;
  readonly openTelemetry?: boolean;
  readonly otlp?: OtlpConfig;
}

/** A named subset of backends and tools (the HTTP proxy serves each at `/mcp/<profile>`). */
export interface ProfileConfig {
  /** Backend keys in the profile; every backend when absent. */
  readonly backends?: readonly string[];
  /** Globs over exposed tool names; deny wins. */
  readonly tools: { readonly allow?: readonly string[]; readonly deny?: readonly string[] };
  readonly description?: string;
  /** Tool overrides keyed by exposed names, applied over the backends' own. */
  readonly overrides?: OverridesConfig;
  /** Per-tool limits of the profile's clients (before the top-level `limits.tools`). */
  readonly limits?: { readonly tools?: ToolLimitsConfig | undefined };
}

/** A gateway config, validated and with defaults applied. */
export interface GatewayConfig {
  readonly namespaceSeparator: string;
  readonly maxNameLength: number;
  readonly conflictPolicy: ConflictPolicy;
  readonly pageSize: number;
  readonly telemetry: TelemetryConfig;
  /** What the description scanner does with flagged tools and prompts; `warn` when absent. */
  readonly scan?: ScanMode;
  /** Profiles by name. */
  readonly profiles: Readonly<Record<string, ProfileConfig>>;
  /** Backends in the order of the file (the order decides `priority` conflicts). */
  readonly backends: readonly BackendConfig[];
  /**
   * Values that came from `${VAR}` expansion: masked in every output like `env` values (see
   * `collectConfigSecrets`). Never shown in `gateway_status`.
   */
  readonly secrets?: readonly string[];
  /** The `pins` block as written, when the file has one (defaults: `resolvePinsConfig`). */
  readonly pins?: PinsConfig;
  /** The `audit` block as written, when the file has one. */
  readonly audit?: AuditConfig;
  /**
   * The `limits` block as written, when the file has one: `tools`, the per-tool limits both apps
   * honour (an app that adds keys to the block finds them here too).
   */
  readonly limits?: { readonly tools?: ToolLimitsConfig };
  /** The `modern` block (the router's `modern` options a file can set), when the file has one. */
  readonly modern?: Omit<ModernFrontOptions, "requestStateKey" | "cluster">;
  /** The `credentials` block (the credential store), when the file has one. */
  readonly credentials?: CredentialsConfig;
}
