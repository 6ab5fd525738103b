export {
  type AdmissionOptions,
  ANONYMOUS,
  admit,
  clientAddress,
  createRateLimiter,
  isRefusal,
  RATE_LIMITED_CODE,
  type RateDecision,
  type RateLimiter,
  type RateLimiterOptions,
  type Refusal,
  type SharedRateLimiter,
} from "./admission/admission.js";
export {
  type AuthDecision,
  AuthRequiredError,
  decideAuth,
  isLoopbackHost,
} from "./admission/auth-policy.js";
export type { FrontCredentials } from "./admission/front-admission.js";
export {
  type AuthorizationServerMetadata,
  discoverAuthorizationServer,
  metadataDiscoveryUrls,
  OAuthDiscoveryError,
} from "./admission/oauth/authorization-server-metadata.js";
export {
  type BearerChallenge,
  type BearerError,
  formatBearerChallenge,
} from "./admission/oauth/bearer-challenge.js";
export { type FetchFunction, OAuthFetchError } from "./admission/oauth/fetch-json.js";
export {
  OAUTH_ALGORITHMS,
  type OAuthConfig,
  OAuthConfigError,
  type OAuthIntrospectionConfig,
  type ResolvedOAuthConfig,
} from "./admission/oauth/oauth-config.js";
export {
  endpointForMetadataPath,
  type OAuthEndpoint,
  oauthEndpointForPath,
  PROTECTED_RESOURCE_METADATA_PATH,
  resourceMetadataUrl,
  resourceUrl,
} from "./admission/oauth/oauth-endpoint.js";
export {
  MAX_PRINCIPAL_ID_LENGTH,
  MAX_SUBJECT_LENGTH,
  type OAuthPrincipal,
} from "./admission/oauth/oauth-principal.js";
export {
  createOAuthVerifier,
  MAX_ACCESS_TOKEN_LENGTH,
  type OAuthVerification,
  type OAuthVerifier,
  type OAuthVerifierOptions,
} from "./admission/oauth/oauth-verifier.js";
export {
  type ParseOAuthConfigOptions,
  parseOAuthConfig,
} from "./admission/oauth/parse-oauth-config.js";
export {
  type ProtectedResourceMetadata,
  protectedResourceMetadata,
} from "./admission/oauth/protected-resource-metadata.js";
export {
  type GrantedProfiles,
  grantsProfile,
  profilesForScopes,
  scopesForProfile,
  stepUpScope,
} from "./admission/oauth/scope-profiles.js";
export { MAX_CACHED_TOKENS } from "./admission/oauth/verified-token-cache.js";
export {
  type BearerTokenConfig,
  createTokenAuthenticator,
  hashToken,
  mayUseProfile,
  type TokenAuthenticator,
  type TokenIdentity,
} from "./admission/token-auth.js";
export type {
  ClusterBus,
  ClusterCall,
  ClusterCalls,
  ClusterDelivery,
  ClusterGetStreams,
  ClusterSseSessions,
  ForwardedSseMessage,
  GatewayCluster,
  LostCall,
  ModernRelay,
  RelayedModernContext,
  RelayedModernRequest,
  SharedSessionRecord,
  SharedSessionStore,
  SseHolder,
  SubscriptionChange,
} from "./cluster/cluster.js";
export { REPLICA_LOST_CODE } from "./cluster/orphaned-calls.js";
export { SHARED_STORE_UNAVAILABLE_CODE } from "./cluster/shared-session-transport.js";
export {
  type ParsedProxyConfig,
  type ParseProxyConfigOptions,
  PROXY_CONFIG_BLOCKS,
  type ProxyConfig,
  type ProxyConfigBlocks,
  parseProxyConfig,
} from "./config/parse-proxy-config.js";
export {
  type AuthConfig,
  AuthConfigSchema,
  AuthTokenConfigSchema,
  type ClusterConfig,
  ClusterConfigSchema,
  type HttpConfig,
  HttpConfigSchema,
  type LimitsConfig,
  LimitsConfigSchema,
  ProxyLimitsConfigSchema,
} from "./config/proxy-config-schema.js";
export {
  type ClientSnippet,
  type ConnectGuideOptions,
  connectSnippets,
} from "./endpoints/connect-guide.js";
export { type GatewayRoute, parseGatewayPath, requestPath } from "./endpoints/gateway-path.js";
export type { GatewayIndex, GatewayIndexOptions } from "./endpoints/index-page.js";
export {
  createPlainJsonRpcEndpoint,
  type PlainJsonRpcEndpoint,
  type PlainJsonRpcOptions,
} from "./endpoints/plain-json-rpc.js";
export { type Readiness, readiness } from "./endpoints/readiness.js";
export { formatGatewayLog, type GatewayLogEntry, type LogFormat } from "./gateway-telemetry.js";
export {
  createHttpGateway,
  type HttpGateway,
  type HttpGatewayCloseOptions,
} from "./http-gateway.js";
export {
  DEFAULT_HTTP_GATEWAY_LIMITS,
  type HttpGatewayLimits,
  type HttpGatewayOptions,
  resolveLimits,
} from "./http-gateway-options.js";
export {
  type FrontGuardOptions,
  type FrontRequestEnd,
  type GuardedTransport,
  guardFrontTransport,
  REQUEST_TIMEOUT_CODE,
  RESULT_TOO_LARGE_CODE,
} from "./session/front-guard.js";
