import {
  type ConfigBlock,
  type ConfigWithBlocks,
  type ParsedGatewayConfig,
  type ParseGatewayConfigOptions,
  parseGatewayConfig,
} from "@patchbay/router";
import {
  authIssues,
  unknownAuthKeys,
  unknownClusterKeys,
  unknownHttpKeys,
} from "./proxy-config-checks.js";
import {
  AuthConfigSchema,
  ClusterConfigSchema,
  HttpConfigSchema,
  ProxyLimitsConfigSchema,
} from "./proxy-config-schema.js";

const authBlock: ConfigBlock<typeof AuthConfigSchema> = {
  schema: AuthConfigSchema,
  writtenIssues: unknownAuthKeys,
  parsedIssues: authIssues,
};

/**
 * The top-level blocks the HTTP proxy adds to the router's config file: `auth` (bearer tokens and
 * OAuth sign-in), the proxy's keys of `limits`, `http` (Host/Origin lists, the reverse proxy in
 * front) and `cluster` (the replicas' Redis). `auth`, `http` and `cluster` decide who gets in, so
 * an unknown key in them is an error; one of `limits` is a warning, as in the router's blocks.
 * Give them to `parseGatewayConfig` or `loadConfigFile` as `blocks`.
 */
export const PROXY_CONFIG_BLOCKS = {
  auth: authBlock,
  limits: { schema: ProxyLimitsConfigSchema },
  http: { schema: HttpConfigSchema, writtenIssues: unknownHttpKeys },
  cluster: { schema: ClusterConfigSchema, writtenIssues: unknownClusterKeys },
} as const satisfies Readonly<Record<string, ConfigBlock>>;

/** The blocks the HTTP proxy adds to the router's config (see {@link PROXY_CONFIG_BLOCKS}). */
export type ProxyConfigBlocks = typeof PROXY_CONFIG_BLOCKS;

/** The HTTP proxy's config: the router's, with `auth`, `limits`, `http` and `cluster` as parsed. */
export type ProxyConfig = ConfigWithBlocks<ProxyConfigBlocks>;

/** Options of {@link parseProxyConfig}: those of the router's parser but the blocks. */
export type ParseProxyConfigOptions = Omit<
  ParseGatewayConfigOptions<ProxyConfigBlocks>,
  "blocks" | "ignoreBlocks"
>;

/** A usable proxy config and the problems that did not stop it. */
export type ParsedProxyConfig = ParsedGatewayConfig<ProxyConfigBlocks>;

/**
 * Validates a parsed config file as the HTTP proxy reads it: the router's blocks (see
 * `parseGatewayConfig`) and the proxy's (`PROXY_CONFIG_BLOCKS`), failing closed on what decides who
 * gets in. Throws `GatewayConfigError` listing every problem with its path.
 */
export function parseProxyConfig(
  value: unknown,
  options: ParseProxyConfigOptions = {},
): ParsedProxyConfig {
  return parseGatewayConfig(value, { ...options, blocks: PROXY_CONFIG_BLOCKS });
}
