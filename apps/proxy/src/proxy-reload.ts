import { resolve } from "node:path";
import { signInIssues } from "@patchbay/backend-transports";
import type { Dashboard } from "@patchbay/dashboard";
import {
  createOAuthVerifier,
  decideAuth,
  type HttpGateway,
  type OAuthConfig,
  type OAuthVerifier,
  type ParsedProxyConfig,
  PROXY_CONFIG_BLOCKS,
  type ProxyConfig,
} from "@patchbay/http-gateway";
import { type Environment, GatewayConfigError, type Router } from "@patchbay/router";
import { loadConfigFile, watchConfigFile } from "@patchbay/router/config-file";
import type { Redactor } from "@patchbay/telemetry";
import type { ProxyLog } from "./proxy-log.js";

/** The blocks a running proxy cannot change: they are read once, at start. */
const RESTART_ONLY = ["limits", "http", "cluster", "modern", "credentials"] as const;

/** What a reload changes, and what it reads. */
export interface ProxyReloadTargets {
  readonly configPath: string;
  readonly environment: Readonly<Record<string, string | undefined>>;
  readonly host: string;
  readonly router: Router;
  readonly gateway: HttpGateway;
  readonly dashboard: Dashboard;
  readonly log: ProxyLog;
  readonly redact: Redactor;
  /** The config and OAuth verifier the proxy started with. */
  readonly initial: { readonly config: ProxyConfig; readonly oauth: OAuthVerifier | undefined };
}

/**
 * The OAuth verifier of `auth.oauth`, started: its config is checked (an `OAuthConfigError` names
 * the key) and every issuer's metadata and keys fetched, so a wrong issuer fails the start.
 */
export async function startOAuth(
  section: unknown,
  profiles: readonly string[],
): Promise<OAuthVerifier> {
  const verifier = createOAuthVerifier(section as OAuthConfig, { profiles });
  await verifier.start();
  return verifier;
}

/** The literal secrets of a config's `auth` and `cluster` blocks, which the log must never show. */
export function authSecrets(config: ProxyConfig, oauth: OAuthVerifier | undefined): string[] {
  return [
    ...(config.auth?.tokens ?? []).flatMap((entry) => (entry.token ? [entry.token] : [])),
    ...(oauth?.config.introspection === undefined ? [] : [oauth.config.introspection.clientSecret]),
    ...(config.cluster?.secret === undefined ? [] : [config.cluster.secret]),
    ...(config.cluster?.previousSecrets ?? []),
  ];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A block read once at start, as it was read (`limits` without `tools`, which a reload applies). */
function restartPart(config: ProxyConfig, key: (typeof RESTART_ONLY)[number]): unknown {
  if (key !== "limits" || config.limits === undefined) return config[key];
  const { tools: _tools, ...rest } = config.limits;
  return rest;
}

/** Reads and validates a proxy config file (JSON, JSON with comments, or YAML), with the proxy's blocks. */
export function loadProxyConfig(
  path: string,
  environment: Environment,
): Promise<ParsedProxyConfig> {
  return loadConfigFile(path, environment, { blocks: PROXY_CONFIG_BLOCKS });
}

/**
 * Reads the proxy's config file: as the router reads it with the proxy's blocks
 * (`@patchbay/http-gateway`'s `PROXY_CONFIG_BLOCKS`), and refused when a shared or per-session
 * backend signs in with OAuth (an `oauth` block), which the proxy does only per principal (each
 * principal connects on a link): never such a backend reached without its token.
 */
export async function loadProxyConfigFile(
  path: string,
  environment: Environment,
): Promise<ParsedProxyConfig> {
  const parsed = await loadProxyConfig(path, environment);
  const issues = signInIssues(parsed.config, "patchbay-proxy", { perPrincipal: true });
  if (issues.length > 0) throw new GatewayConfigError(issues, path);
  return parsed;
}

/**
 * The part of the config the router runs (`gateway_status` shows it, so never `auth`, nor where
 * the credential store is): of
 * `limits`, only the per-tool limits, which the router counts.
 */
export function routerPart(config: ProxyConfig): ProxyConfig {
  const {
    auth: _auth,
    limits,
    http: _http,
    cluster: _cluster,
    credentials: _credentials,
    ...rest
  } = config;
  return limits?.tools === undefined ? rest : { ...rest, limits: { tools: limits.tools } };
}

/**
 * Creates the proxy's reload: it reads the config file again and applies what changed (backends,
 * profiles and the rest of the router's config; static tokens and OAuth sign-in, for the API and the
 * dashboard). A file that does not parse, an `auth` that cannot be used or an OAuth issuer that
 * cannot be reached is refused with its error, and the running config keeps serving. `limits`,
 * `http`, `cluster` and `modern` are read once: a change to them is named in a warning and waits for a
 * restart. Reloads run one after another; each resolves true when it applied the file.
 */
export function createProxyReload(targets: ProxyReloadTargets): () => Promise<boolean> {
  const { log } = targets;
  let current = targets.initial;
  let queue = Promise.resolve(true);

  async function apply(): Promise<boolean> {
    let next: ProxyConfig;
    let oauth: OAuthVerifier | undefined;
    try {
      const parsed = await loadProxyConfigFile(targets.configPath, targets.environment);
      next = parsed.config;
      for (const warning of parsed.warnings) log.warn(warning);
      const decision = decideAuth(next.auth, targets.host);
      oauth =
        decision.oauth === undefined
          ? undefined
          : same(decision.oauth, current.config.auth?.oauth)
            ? current.oauth
            : await startOAuth(decision.oauth, Object.keys(next.profiles));
      targets.redact.addSecretValues(authSecrets(next, oauth));
      targets.gateway.setAuth({ tokens: decision.tokens, oauth });
      targets.dashboard.setTokens(decision.tokens ?? (oauth === undefined ? undefined : []));
    } catch (error) {
      log.error(`${(error as Error).message}\nkeeping the previous config`);
      return false;
    }
    for (const key of RESTART_ONLY) {
      // Compared with the start: those blocks run as they were then.
      if (!same(restartPart(next, key), restartPart(targets.initial.config, key))) {
        log.warn(`${key} changed: restart the proxy to apply it (the running ${key} stays)`);
      }
    }
    const routerConfig = routerPart(next);
    if (!same(routerConfig, routerPart(current.config))) await targets.router.reload(routerConfig);
    current = { config: next, oauth };
    const tokens = next.auth?.tokens?.length ?? 0;
    log.info(
      `config reloaded: ${routerConfig.backends.length} backends, ${Object.keys(routerConfig.profiles).length} profiles, ${tokens} tokens${oauth === undefined ? "" : ", OAuth sign-in"}`,
    );
    return true;
  }

  return () => {
    queue = queue.then(apply, apply);
    return queue;
  };
}

/**
 * The proxy's reload (`createProxyReload`) and, with `watch`, a watch of its config file that runs
 * it on every change; without a file (the demo) a reload applies nothing and resolves false.
 */
export function startReloading(
  configPath: string | undefined,
  watch: boolean,
  targets: Omit<ProxyReloadTargets, "configPath">,
): { reload(): Promise<boolean>; close(): void } {
  if (configPath === undefined) return { reload: async () => false, close: () => {} };
  const reload = createProxyReload({ ...targets, configPath: resolve(configPath) });
  const watcher = watch
    ? watchConfigFile(resolve(configPath), async () => void (await reload()), {
        onError: (error) => targets.log.warn(`cannot watch the config: ${error.message}`),
      })
    : undefined;
  return { reload, close: () => watcher?.close() };
}
