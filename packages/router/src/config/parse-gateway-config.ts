import { z } from "zod";
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
import {
  addedBlockValues,
  type ConfigBlocks,
  type ConfigWithBlocks,
  fileSchemaWith,
  type IgnoredBlocks,
  isRecord,
  type NoConfigBlocks,
  parsedBlockIssues,
  unknownKeyIssues,
  withoutIgnoredBlocks,
  writtenBlockIssues,
} from "./config-blocks.js";
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
  type GatewayConfigFile,
  PinsConfigSchema,
  ProfileConfigSchema,
  TelemetryConfigSchema,
} from "./gateway-config-schema.js";
import { type ModernConfig, ModernConfigSchema } from "./modern-config-schema.js";
import { suggestKey } from "./suggest-key.js";

/** Options of `parseGatewayConfig`. */
export interface ParseGatewayConfigOptions<Blocks extends ConfigBlocks = NoConfigBlocks> {
  /** Where `${VAR}` values come from; none are expanded without it. */
  readonly environment?: Environment;
  /** The file name, for error messages. */
  readonly source?: string;
  /**
   * The top-level blocks the app adds to the router's (each with its schema and checks); the
   * parsed config carries them. Without them, an app's block is an unknown key (a warning).
   */
  readonly blocks?: Blocks;
  /**
   * Blocks dropped before anything is expanded or checked, with one warning naming them, so that an
   * app runs a config file written for another (`limits.tools`, which holds in every app, stays).
   */
  readonly ignoreBlocks?: IgnoredBlocks;
}

/** A usable config and the problems that did not stop it (unknown keys, a `:` separator). */
export interface ParsedGatewayConfig<Blocks extends ConfigBlocks = NoConfigBlocks> {
  readonly config: ConfigWithBlocks<Blocks>;
  readonly warnings: readonly string[];
}

/**
 * Validates a parsed config file (JSON or YAML already turned into a value): expands `${VAR}` and
 * `${VAR:-default}`, checks every key, applies defaults. Throws `GatewayConfigError` listing every
 * problem with its path in the file and what was expected.
 */
export function parseGatewayConfig<Blocks extends ConfigBlocks = NoConfigBlocks>(
  value: unknown,
  options: ParseGatewayConfigOptions<Blocks> = {},
): ParsedGatewayConfig<Blocks> {
  const blocks: ConfigBlocks = options.blocks ?? {};
  const schema = fileSchemaWith(blocks);
  const issues: ConfigIssue[] = [];
  const warnings: string[] = [];
  if (options.ignoreBlocks !== undefined) {
    const kept = withoutIgnoredBlocks(value, options.ignoreBlocks);
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
  const result = schema.safeParse(expanded.value);
  if (!result.success) {
    issues.push(...result.error.issues.map(toConfigIssue));
    issues.push(...misspeltKeys(expanded.value, schema));
    if (isRecord(expanded.value)) {
      issues.push(...writtenBlockIssues(expanded.value, blocks));
      issues.push(...unknownModernKeys(expanded.value));
      issues.push(...unknownSignInKeys(expanded.value));
    }
    throw new GatewayConfigError(issues, options.source);
  }
  const parsed = result.data as Record<string, unknown>;
  const file = parsed as GatewayConfigFile;
  const root = expanded.value as Record<string, unknown>;
  warnings.push(...unknownKeys(root, schema));
  // JSON.parse keeps a "__proto__" key as data; the schema's copy drops it without a word.
  const rawProfiles = (expanded.value as { profiles?: unknown }).profiles;
  if (
    typeof rawProfiles === "object" &&
    rawProfiles !== null &&
    Object.hasOwn(rawProfiles, "__proto__")
  ) {
    issues.push({ path: "profiles.__proto__", message: "__proto__ is not a usable profile name" });
  }
  issues.push(...writtenBlockIssues(root, blocks), ...parsedBlockIssues(parsed, blocks));
  issues.push(...unknownModernKeys(root));
  issues.push(...unknownSignInKeys(root));

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
    throw new GatewayConfigError([...issues, ...misspeltKeys(root, schema)], options.source);
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
      ...(file.audit === undefined ? {} : { audit: file.audit }),
      ...(file.limits === undefined ? {} : { limits: file.limits }),
      ...(file.modern === undefined ? {} : { modern: modernOptionsOf(file.modern) }),
      ...(file.credentials === undefined ? {} : { credentials: file.credentials }),
      ...addedBlockValues(parsed, blocks),
    } as ConfigWithBlocks<Blocks>,
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

const knownBackend = new Set(Object.keys(BackendConfigSchema.shape));
const knownTelemetry = new Set(Object.keys(TelemetryConfigSchema.shape));
const knownPins = new Set(Object.keys(PinsConfigSchema.shape));
const knownProfile = new Set(Object.keys(ProfileConfigSchema.shape));
const knownModern = new Set(Object.keys(ModernConfigSchema.shape));
const knownModernTasks = new Set(["maxTasks", "maxTasksPerCaller", "maxTtlMs"]);
const knownModernCaching = new Set(["ttlMs", "cacheScope"]);
const knownBackendOAuth = new Set(Object.keys(BackendOAuthConfigSchema.shape));
const knownCredentials = new Set(Object.keys(CredentialsConfigSchema.shape));
const knownBackendCredentials = new Set(Object.keys(BackendCredentialsSchema.shape));

/** A misspelt key is often why a config is invalid: name it and the likely intent. */
function misspeltKeys(value: unknown, schema: z.ZodObject): ConfigIssue[] {
  return unknownKeys(value, schema)
    .filter((warning) => warning.includes("did you mean"))
    .map((warning) => {
      const [path = "", message = ""] = warning.split(/: (.*)/s);
      return { path, message };
    });
}

/** The unknown keys of the blocks the router reads, as warnings (`schema`: the file's, with an app's blocks). */
function unknownKeys(value: unknown, schema: z.ZodObject): string[] {
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
  check(root, new Set(Object.keys(schema.shape)), "");
  check(root.telemetry, knownTelemetry, "telemetry");
  check(root.pins, knownPins, "pins");
  for (const [name, entry] of Object.entries((root.mcpServers ?? {}) as Record<string, unknown>)) {
    check(entry, knownBackend, joinPath("mcpServers", name));
  }
  for (const [name, entry] of Object.entries((root.profiles ?? {}) as Record<string, unknown>)) {
    check(entry, knownProfile, joinPath("profiles", name));
  }
  check(root.limits, knownKeysOf(schema, "limits"), "limits");
  return warnings;
}

/** The keys of the object block `name` of `schema` (an app may have added some). */
function knownKeysOf(schema: z.ZodObject, name: string): Set<string> {
  let block = schema.shape[name];
  while (block instanceof z.ZodOptional) block = block.unwrap();
  return new Set(block instanceof z.ZodObject ? Object.keys(block.shape) : []);
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
