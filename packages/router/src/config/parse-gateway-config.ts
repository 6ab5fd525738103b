import type { z } from "zod";
import { DEFAULT_CONFLICT_POLICY } from "../catalogue/conflict.js";
import { DEFAULT_PAGE_SIZE } from "../catalogue/pagination.js";
import type { RestartPolicyOptions } from "../lifecycle/restart-policy.js";
import {
  checkNamespaceSeparator,
  DEFAULT_NAME_LENGTH_BUDGET,
  DEFAULT_NAMESPACE_SEPARATOR,
  describeNamespaceProblem,
  MINIMUM_NAME_LENGTH_BUDGET,
  NamespaceOptionsError,
} from "../namespacing/qualified-name.js";
import { overrideIssues } from "../overrides/check-overrides.js";
import { credentialsIssues } from "./credentials-config.js";
import { BackendCredentialsSchema, CredentialsConfigSchema } from "./credentials-config-schema.js";
import { type Environment, expandVariables, joinPath } from "./expand-variables.js";
import {
  type BackendConfig,
  DEFAULT_MAX_TIMEOUT_MS,
  DEFAULT_TIMEOUT_MS,
  type GatewayConfig,
  type ProfileConfig,
  type TelemetryConfig,
} from "./gateway-config.js";
import { type ConfigIssue, GatewayConfigError } from "./gateway-config-error.js";
import {
  type BackendConfigFile,
  BackendConfigSchema,
  BackendOAuthConfigSchema,
  GatewayConfigFileSchema,
  PinsConfigSchema,
  ProfileConfigSchema,
  TelemetryConfigSchema,
} from "./gateway-config-schema.js";
import {
  type AuthConfig,
  AuthConfigSchema,
  ClusterConfigSchema,
  HttpConfigSchema,
  LimitsConfigSchema,
  type ModernConfig,
  ModernConfigSchema,
} from "./proxy-config-schema.js";
import { suggestKey } from "./suggest-key.js";

/** Options of `parseGatewayConfig`. */
export interface ParseGatewayConfigOptions {
  /** Where `${VAR}` values come from; none are expanded without it. */
  readonly environment?: Environment;
  /** The file name, for error messages. */
  readonly source?: string;
  /**
   * `"ignore"`: the blocks only the HTTP proxy reads (`auth`, `limits`, `http`, `cluster`,
   * `modern`, `profiles`) are dropped before anything is expanded or checked, with one warning naming them,
   * so that the stdio gateway runs a proxy's config file. Default `"read"`.
   */
  readonly proxyBlocks?: "read" | "ignore";
}

/** The top-level blocks only the HTTP proxy reads. */
const PROXY_ONLY_BLOCKS = [
  "auth",
  "limits",
  "http",
  "cluster",
  "modern",
  "profiles",
  "credentials",
] as const;

/** `value` without the proxy's own blocks, and a warning naming those it had. */
function withoutProxyBlocks(value: unknown): { value: unknown; warning: string | undefined } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { value, warning: undefined };
  }
  const present = PROXY_ONLY_BLOCKS.filter((key) => Object.hasOwn(value, key));
  if (present.length === 0) return { value, warning: undefined };
  const rest: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const key of present) delete rest[key];
  // Per-tool limits hold in both apps: `limits.tools` stays, the rest of `limits` goes.
  const limits = (value as { limits?: unknown }).limits;
  const tools = isRecord(limits) ? limits.tools : undefined;
  if (tools !== undefined) rest.limits = { tools };
  const ignored = present.filter(
    (key) => key !== "limits" || tools === undefined || Object.keys(limits as object).length > 1,
  );
  if (ignored.length === 0) return { value: rest, warning: undefined };
  const names = ignored.map((key) =>
    key === "limits" && tools !== undefined ? "limits (but limits.tools)" : key,
  );
  return {
    value: rest,
    warning: `${names.join(", ")}: read by patchbay-proxy only; ignored here (not expanded, not checked)`,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A usable config and the problems that did not stop it (unknown keys, a `:` separator). */
export interface ParsedGatewayConfig {
  readonly config: GatewayConfig;
  readonly warnings: readonly string[];
}

/**
 * Validates a parsed config file (JSON or YAML already turned into a value): expands `${VAR}` and
 * `${VAR:-default}`, checks every key, applies defaults. Throws `GatewayConfigError` listing every
 * problem with its path in the file and what was expected.
 */
export function parseGatewayConfig(
  value: unknown,
  options: ParseGatewayConfigOptions = {},
): ParsedGatewayConfig {
  const issues: ConfigIssue[] = [];
  const warnings: string[] = [];
  if (options.proxyBlocks === "ignore") {
    const kept = withoutProxyBlocks(value);
    value = kept.value;
    if (kept.warning !== undefined) warnings.push(kept.warning);
  }
  const expanded = expandVariables(value, options.environment ?? {});
  for (const missing of expanded.missing) {
    issues.push({
      path: missing.path,
      message: `environment variable ${missing.variable} is not set (write \${${missing.variable}:-default} to give a default)`,
    });
  }
  const result = GatewayConfigFileSchema.safeParse(expanded.value);
  if (!result.success) {
    issues.push(...result.error.issues.map(toConfigIssue));
    issues.push(...misspeltKeys(expanded.value));
    if (typeof expanded.value === "object" && expanded.value !== null) {
      issues.push(...unknownAccessKeys(expanded.value as Record<string, unknown>));
      issues.push(...unknownModernKeys(expanded.value as Record<string, unknown>));
      issues.push(...unknownSignInKeys(expanded.value as Record<string, unknown>));
    }
    throw new GatewayConfigError(issues, options.source);
  }
  const file = result.data;
  warnings.push(...unknownKeys(expanded.value));
  // JSON.parse keeps a "__proto__" key as data; the schema's copy drops it without a word.
  const rawProfiles = (expanded.value as { profiles?: unknown }).profiles;
  if (
    typeof rawProfiles === "object" &&
    rawProfiles !== null &&
    Object.hasOwn(rawProfiles, "__proto__")
  ) {
    issues.push({ path: "profiles.__proto__", message: "__proto__ is not a usable profile name" });
  }
  issues.push(...accessIssues(expanded.value, file.auth));
  issues.push(...unknownModernKeys(expanded.value as Record<string, unknown>));
  issues.push(...unknownSignInKeys(expanded.value as Record<string, unknown>));

  const separator = file.namespaceSeparator ?? DEFAULT_NAMESPACE_SEPARATOR;
  try {
    warnings.push(
      ...checkNamespaceSeparator(separator).map((text) => `namespaceSeparator: ${text}`),
    );
  } catch (error) {
    if (!(error instanceof NamespaceOptionsError)) throw error;
    issues.push({ path: "namespaceSeparator", message: error.message });
  }
  const maxNameLength = file.maxNameLength ?? DEFAULT_NAME_LENGTH_BUDGET;
  if (maxNameLength < MINIMUM_NAME_LENGTH_BUDGET || maxNameLength > 128) {
    issues.push({
      path: "maxNameLength",
      message: `expected an integer from ${MINIMUM_NAME_LENGTH_BUDGET} to 128, got ${maxNameLength}`,
    });
  }

  const backends: BackendConfig[] = [];
  const namespaces = new Map<string, string>();
  for (const [name, entry] of Object.entries(file.mcpServers)) {
    const backend = toBackendConfig(name, entry, separator, issues);
    if (!backend) continue;
    if (backend.namespace !== "") {
      const other = namespaces.get(backend.namespace);
      if (other !== undefined) {
        issues.push({
          path: joinPath(joinPath("mcpServers", name), "namespace"),
          message: `namespace "${backend.namespace}" is already used by "${other}"; give one of them another namespace`,
        });
      }
      namespaces.set(backend.namespace, name);
    }
    backends.push(backend);
  }
  const profiles: Record<string, ProfileConfig> = {};
  for (const [name, profile] of Object.entries(file.profiles ?? {})) {
    const path = joinPath("profiles", name);
    const listKey =
      profile.backends === undefined && profile.servers !== undefined ? "servers" : "backends";
    if (profile.backends !== undefined && profile.servers !== undefined) {
      issues.push({ path, message: 'expected "backends" or "servers" (the same list), not both' });
    }
    (profile.backends ?? profile.servers ?? []).forEach((backend, index) => {
      if (!(backend in file.mcpServers)) {
        issues.push({
          path: joinPath(joinPath(path, listKey), index),
          message: `expected a key of mcpServers, got "${backend}"`,
        });
      }
    });
    profiles[name] = withoutUndefined({
      backends: profile.backends ?? profile.servers,
      tools: withoutUndefined({ allow: profile.tools?.allow, deny: profile.tools?.deny }),
      description: profile.description,
      overrides: profile.overrides,
      limits: profile.limits,
    });
  }
  if (issues.length === 0) issues.push(...overrideIssues(backends, profiles, separator));
  if (issues.length > 0) {
    throw new GatewayConfigError([...issues, ...misspeltKeys(expanded.value)], options.source);
  }

  const { otlp, ...telemetryRest } = file.telemetry ?? {};
  const telemetry: TelemetryConfig = withoutUndefined({
    ...telemetryRest,
    otlp: otlp === undefined ? undefined : withoutUndefined(otlp),
  });
  return {
    config: {
      namespaceSeparator: separator,
      maxNameLength,
      conflictPolicy: file.conflictPolicy ?? DEFAULT_CONFLICT_POLICY,
      pageSize: file.pageSize ?? DEFAULT_PAGE_SIZE,
      telemetry,
      ...(file.scan === undefined ? {} : { scan: file.scan }),
      backends,
      profiles,
      secrets: expanded.secrets,
      ...(file.pins === undefined ? {} : { pins: withoutUndefined(file.pins) }),
      ...(file.auth === undefined ? {} : { auth: file.auth }),
      ...(file.audit === undefined ? {} : { audit: file.audit }),
      ...(file.limits === undefined ? {} : { limits: file.limits }),
      ...(file.http === undefined ? {} : { http: file.http }),
      ...(file.cluster === undefined ? {} : { cluster: file.cluster }),
      ...(file.modern === undefined ? {} : { modern: modernOptionsOf(file.modern) }),
      ...(file.credentials === undefined ? {} : { credentials: file.credentials }),
    },
    warnings,
  };
}

function toBackendConfig(
  name: string,
  entry: BackendConfigFile,
  separator: string,
  issues: ConfigIssue[],
): BackendConfig | undefined {
  const path = joinPath("mcpServers", name);
  const before = issues.length;
  const namespace = entry.namespace ?? name;
  const namespaceProblem = describeNamespaceProblem(namespace, separator);
  if (namespaceProblem !== undefined) {
    issues.push(
      entry.namespace === undefined
        ? {
            path,
            message: `the key is used as the namespace, but ${namespaceProblem}; set "namespace" to a valid one`,
          }
        : { path: joinPath(path, "namespace"), message: namespaceProblem },
    );
  }
  const declared = normaliseTransport(entry.transport ?? entry.type);
  if (entry.command === undefined && entry.url === undefined) {
    issues.push({
      path,
      message: 'expected "command" (a local server started over stdio) or "url" (a remote server)',
    });
  }
  if (entry.command !== undefined && entry.url !== undefined) {
    issues.push({ path, message: 'expected either "command" or "url", not both' });
  }
  if (entry.command !== undefined && declared !== undefined && declared !== "stdio") {
    issues.push({
      path: joinPath(path, entry.transport !== undefined ? "transport" : "type"),
      message: `a server with "command" runs over stdio, not ${declared}`,
    });
  }
  if (entry.url !== undefined && declared === "stdio") {
    issues.push({
      path: joinPath(path, entry.transport !== undefined ? "transport" : "type"),
      message: 'a server with "url" uses "http", "sse" or "ws", not stdio',
    });
  }
  const webSocketUrl = entry.url !== undefined && /^wss?:\/\//i.test(entry.url);
  if (webSocketUrl && declared !== undefined && declared !== "ws" && declared !== "stdio") {
    issues.push({
      path: joinPath(path, entry.transport !== undefined ? "transport" : "type"),
      message: `a ws:// or wss:// "url" is reached over WebSocket, not ${declared}`,
    });
  }
  if (declared === "ws" && entry.url !== undefined && !webSocketUrl) {
    issues.push({
      path: joinPath(path, "url"),
      message: 'a WebSocket server\'s "url" starts with ws:// or wss://',
    });
  }
  const timeoutMs = entry.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxTimeoutMs = entry.maxTimeoutMs ?? Math.max(DEFAULT_MAX_TIMEOUT_MS, timeoutMs);
  if (maxTimeoutMs < timeoutMs) {
    issues.push({
      path: joinPath(path, "maxTimeoutMs"),
      message: `expected at least timeoutMs (${timeoutMs}), got ${maxTimeoutMs}`,
    });
  }
  if (entry.url !== undefined && entry.maxMessageBytes !== undefined) {
    issues.push({
      path: joinPath(path, "maxMessageBytes"),
      message: 'maxMessageBytes applies to servers started with "command" (stdio) only',
    });
  }
  issues.push(...oauthIssues(entry, path, webSocketUrl));
  for (const issue of credentialsIssues(
    entry.isolation,
    entry.credentials,
    entry.command === undefined ? "url" : "command",
    entry.oauth !== undefined,
  )) {
    const issuePath = issue.keys.reduce<string>((parent, key) => joinPath(parent, key), path);
    issues.push({ path: issuePath, message: issue.message });
  }
  if (issues.length > before) return undefined;

  const tools = withoutUndefined({ allow: entry.tools?.allow, deny: entry.tools?.deny });
  const restart: RestartPolicyOptions =
    entry.restart === false ? { enabled: false } : withoutUndefined(entry.restart ?? {});
  const common = {
    name,
    namespace,
    timeoutMs,
    maxTimeoutMs,
    isolation: entry.isolation ?? "shared",
    tools,
    start: entry.start ?? "eager",
    restart,
    disabled: entry.disabled ?? false,
    ...(entry.protocolEra === undefined ? {} : { protocolEra: entry.protocolEra }),
    ...(entry.overrides === undefined ? {} : { overrides: entry.overrides }),
    ...(entry.credentials === undefined ? {} : { credentials: entry.credentials }),
  } as const;
  if (entry.command !== undefined) {
    return {
      ...common,
      transport: "stdio",
      command: entry.command,
      args: entry.args ?? [],
      env: entry.env ?? {},
      ...(entry.cwd === undefined ? {} : { cwd: entry.cwd }),
      ...(entry.maxMessageBytes === undefined ? {} : { maxMessageBytes: entry.maxMessageBytes }),
    };
  }
  return {
    ...common,
    transport: webSocketUrl
      ? "ws"
      : declared === "sse" || declared === "http" || declared === "ws"
        ? declared
        : "auto",
    url: entry.url ?? "",
    headers: entry.headers ?? {},
    ...(entry.oauth === undefined ? {} : { oauth: withoutUndefined(entry.oauth) }),
  };
}

/** `oauth` is for a server reached over HTTP, and a client secret belongs to a client id. */
function oauthIssues(entry: BackendConfigFile, path: string, webSocketUrl: boolean): ConfigIssue[] {
  const oauth = entry.oauth;
  if (oauth === undefined) return [];
  const at = joinPath(path, "oauth");
  if (entry.url === undefined || webSocketUrl) {
    return [{ path: at, message: 'oauth applies to a server with an http(s) "url" only' }];
  }
  if (oauth.clientSecret !== undefined && oauth.clientId === undefined) {
    return [{ path: joinPath(at, "clientSecret"), message: "a clientSecret needs its clientId" }];
  }
  return [];
}

function normaliseTransport(
  value: string | undefined,
): "stdio" | "http" | "sse" | "ws" | undefined {
  if (value === "streamable-http" || value === "streamableHttp") return "http";
  if (value === "websocket") return "ws";
  return value as "stdio" | "http" | "sse" | "ws" | undefined;
}

function toConfigIssue(issue: z.core.$ZodIssue): ConfigIssue {
  let path = "";
  for (const key of issue.path) path = joinPath(path, typeof key === "number" ? key : String(key));
  // A bad record key carries the key's own issues inside (zod 4 `invalid_key`).
  const nested = (issue as { issues?: readonly { message: string }[] }).issues;
  const raw = issue.code === "invalid_key" && nested?.[0] ? nested[0].message : issue.message;
  return { path, message: raw.replace(/^Invalid input: /, "") };
}

const knownTopLevel = new Set(Object.keys(GatewayConfigFileSchema.shape));
const knownBackend = new Set(Object.keys(BackendConfigSchema.shape));
const knownTelemetry = new Set(Object.keys(TelemetryConfigSchema.shape));
const knownPins = new Set(Object.keys(PinsConfigSchema.shape));
const knownProfile = new Set(Object.keys(ProfileConfigSchema.shape));
const knownAuth = new Set(Object.keys(AuthConfigSchema.shape));
const knownToken = new Set(["name", "token", "sha256", "profiles", "operator"]);
const knownLimits = new Set(Object.keys(LimitsConfigSchema.shape));
const knownHttp = new Set(Object.keys(HttpConfigSchema.shape));
const knownCluster = new Set(Object.keys(ClusterConfigSchema.shape));
const knownModern = new Set(Object.keys(ModernConfigSchema.shape));
const knownModernTasks = new Set(["maxTasks", "maxTasksPerCaller", "maxTtlMs"]);
const knownModernCaching = new Set(["ttlMs", "cacheScope"]);
const knownBackendOAuth = new Set(Object.keys(BackendOAuthConfigSchema.shape));
const knownCredentials = new Set(Object.keys(CredentialsConfigSchema.shape));
const knownBackendCredentials = new Set(Object.keys(BackendCredentialsSchema.shape));

/** A misspelt key is often why a config is invalid: name it and the likely intent. */
function misspeltKeys(value: unknown): ConfigIssue[] {
  return unknownKeys(value)
    .filter((warning) => warning.includes("did you mean"))
    .map((warning) => {
      const [path = "", message = ""] = warning.split(/: (.*)/s);
      return { path, message };
    });
}

function unknownKeys(value: unknown): string[] {
  const warnings: string[] = [];
  const check = (node: unknown, known: Set<string>, path: string) => {
    if (typeof node !== "object" || node === null) return;
    for (const key of Object.keys(node)) {
      if (known.has(key)) continue;
      const suggestion = suggestKey(key, known);
      warnings.push(
        suggestion === undefined
          ? `${joinPath(path, key)}: unknown key, ignored`
          : `${joinPath(path, key)}: unknown key ${key}; did you mean ${suggestion}?`,
      );
    }
  };
  if (typeof value !== "object" || value === null) return warnings;
  const root = value as Record<string, unknown>;
  check(root, knownTopLevel, "");
  check(root.telemetry, knownTelemetry, "telemetry");
  check(root.pins, knownPins, "pins");
  for (const [name, entry] of Object.entries((root.mcpServers ?? {}) as Record<string, unknown>)) {
    check(entry, knownBackend, joinPath("mcpServers", name));
  }
  for (const [name, entry] of Object.entries((root.profiles ?? {}) as Record<string, unknown>)) {
    check(entry, knownProfile, joinPath("profiles", name));
  }
  check(root.limits, knownLimits, "limits");
  return warnings;
}

/** The keys of object `node` that `known` lacks, as errors at `path` saying `why` they are errors. */
function unknownKeyIssues(
  node: unknown,
  known: Set<string>,
  path: string,
  why: string,
): ConfigIssue[] {
  if (!isRecord(node)) return [];
  return Object.keys(node)
    .filter((key) => !known.has(key))
    .map((key) => {
      const suggestion = suggestKey(key, known);
      const hint = suggestion === undefined ? "" : `; did you mean ${suggestion}?`;
      return { path: joinPath(path, key), message: `unknown key ${key}${hint} (${why})` };
    });
}

/** Every unknown key of the blocks that decide who gets in, with its path. */
function unknownAccessKeys(root: Record<string, unknown>): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const check = (node: unknown, known: Set<string>, path: string) => {
    const why = "this block decides who gets in, so an unknown key is an error, not ignored";
    issues.push(...unknownKeyIssues(node, known, path, why));
  };
  const auth = root.auth as { tokens?: unknown } | undefined;
  check(auth, knownAuth, "auth");
  if (Array.isArray(auth?.tokens)) {
    auth.tokens.forEach((entry: unknown, index: number) => {
      check(entry, knownToken, joinPath(joinPath("auth", "tokens"), index));
    });
  }
  check(root.http, knownHttp, "http");
  check(root.cluster, knownCluster, "cluster");
  return issues;
}

/**
 * Every unknown key of `modern`, `modern.tasks` and `modern.caching`, with its path: a limit under
 * a misspelt name would silently not hold, so these are errors, not warnings.
 */
function unknownModernKeys(root: Record<string, unknown>): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const check = (node: unknown, known: Set<string>, path: string) => {
    const why = "a limit under an unknown name would not hold, so it is an error, not ignored";
    issues.push(...unknownKeyIssues(node, known, path, why));
  };
  const modern = root.modern;
  check(modern, knownModern, "modern");
  if (isRecord(modern)) {
    check(modern.tasks, knownModernTasks, "modern.tasks");
    check(modern.caching, knownModernCaching, "modern.caching");
  }
  return issues;
}

/**
 * Every unknown key of a backend's `oauth` block and of the credential store's `credentials` block,
 * with its path: a sign-in setting under a misspelt name would silently not apply. A misspelt key
 * of a backend's `credentials` (which its schema refuses already) is named with the likely intent.
 */
function unknownSignInKeys(root: Record<string, unknown>): ConfigIssue[] {
  const why = "a sign-in setting under an unknown name would not apply, so it is an error";
  const issues = unknownKeyIssues(root.credentials, knownCredentials, "credentials", why);
  const servers = isRecord(root.mcpServers) ? root.mcpServers : {};
  for (const [name, entry] of Object.entries(servers)) {
    const oauth = isRecord(entry) ? entry.oauth : undefined;
    const path = joinPath(joinPath("mcpServers", name), "oauth");
    issues.push(...unknownKeyIssues(oauth, knownBackendOAuth, path, why));
    const credentials = isRecord(entry) ? entry.credentials : undefined;
    const at = joinPath(joinPath("mcpServers", name), "credentials");
    const slotsWhy =
      "a credential setting under an unknown name would not apply, so it is an error";
    const misspelt = unknownKeyIssues(credentials, knownBackendCredentials, at, slotsWhy);
    issues.push(...misspelt.filter((issue) => issue.message.includes("did you mean")));
  }
  return issues;
}

/**
 * What makes the blocks that decide who gets in fail closed: an unknown key in `auth`, its tokens,
 * `http` or `cluster`; an `auth` block with no token and no `oauth` that does not say `disabled: true` (which
 * would serve without auth); `disabled` beside tokens; two tokens of one name (logs, sessions and
 * held calls tell callers apart by it).
 */
function accessIssues(value: unknown, auth: AuthConfig | undefined): ConfigIssue[] {
  if (typeof value !== "object" || value === null) return [];
  const issues = unknownAccessKeys(value as Record<string, unknown>);
  if (auth === undefined) return issues;
  const tokens = auth.tokens ?? [];
  const credentials = tokens.length > 0 || auth.oauth !== undefined;
  if (auth.disabled === true && credentials) {
    issues.push({
      path: "auth.disabled",
      message: `auth is disabled, yet ${tokens.length > 0 ? "tokens are listed" : "oauth is set"}: remove one or the other`,
    });
  }
  if (auth.disabled !== true && !credentials) {
    issues.push({
      path: "auth",
      message:
        'expected "tokens" with at least one token, or "oauth" (or "disabled": true to serve without auth on purpose); an auth block without any would let every client in',
    });
  }
  const seen = new Set<string>();
  tokens.forEach((token, index) => {
    // OAuth principals are `<issuer>#<subject>` (or `oauth:<hash>`): a token named like one would
    // share its sessions and buckets.
    if (auth.oauth !== undefined && (token.name.includes("#") || token.name.startsWith("oauth:"))) {
      issues.push({
        path: joinPath(joinPath(joinPath("auth", "tokens"), index), "name"),
        message: `"${token.name}" reads like an OAuth principal (<issuer>#<subject>): token names beside oauth may not contain "#" or start with "oauth:"`,
      });
    }
    if (seen.has(token.name)) {
      issues.push({
        path: joinPath(joinPath(joinPath("auth", "tokens"), index), "name"),
        message: `another token is already named "${token.name}": give each token its own name`,
      });
    }
    seen.add(token.name);
  });
  return issues;
}

/** The `modern` block as the router's options (keys left out rather than undefined). */
function modernOptionsOf(modern: ModernConfig): NonNullable<GatewayConfig["modern"]> {
  const { tasks, ...rest } = modern;
  return {
    ...withoutUndefined(rest),
    ...(tasks === undefined ? {} : { tasks: withoutUndefined(tasks) }),
  };
}

function withoutUndefined<T extends object>(
  value: T,
): { [Key in keyof T]: Exclude<T[Key], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as {
    [Key in keyof T]: Exclude<T[Key], undefined>;
  };
}
