export type {
  BackendConnectContext,
  BackendStatus,
  BackendTransportFactory,
} from "./backends/backend.js";
export type { ServerToClientMethod } from "./backends/backend-events.js";
export { INPUT_KEY_META_KEY } from "./backends/modern-backend.js";
export type { PrincipalCredentials } from "./backends/principal-backends.js";
export { type RouterClock, systemRouterClock } from "./backends/router-clock.js";
export {
  type BackendListing,
  type BuildCatalogueOptions,
  buildCatalogue,
  type Catalogue,
  type CatalogueEntry,
  type NamedItem,
  type ResourceItem,
  type ResourceTemplateItem,
} from "./catalogue/build-catalogue.js";
export {
  CatalogueConflictError,
  type CatalogueKind,
  type ConflictPolicy,
  type ConflictReport,
  type ConflictResolution,
  DEFAULT_CONFLICT_POLICY,
} from "./catalogue/conflict.js";
export {
  compileGlob,
  createNameFilter,
  type NameFilter,
  type NameFilterOptions,
} from "./catalogue/name-filter.js";
export {
  DEFAULT_PAGE_SIZE,
  decodeCursor,
  encodeCursor,
  InvalidCursorError,
  type Page,
  paginate,
} from "./catalogue/pagination.js";
export {
  compileResourceTemplate,
  MAX_TEMPLATE_EXPRESSIONS,
  MAX_TEMPLATE_LENGTH,
} from "./catalogue/resource-template-pattern.js";
export type { WildcardPattern } from "./catalogue/wildcard-pattern.js";
export {
  type ConfigBlock,
  type ConfigBlocks,
  type ConfigWithBlocks,
  type IgnoredBlocks,
  type NoConfigBlocks,
  unknownKeyIssues,
} from "./config/config-blocks.js";
export {
  connectsPerPrincipal,
  credentialSlotsOf,
  OAUTH_ACCESS_TOKEN_SLOT,
  setByUser,
} from "./config/credentials-config.js";
export type {
  BackendCredentials,
  CredentialsConfig,
} from "./config/credentials-config-schema.js";
export {
  type Environment,
  expandString,
  expandVariables,
  joinPath,
  type MissingVariable,
} from "./config/expand-variables.js";
export {
  type BackendConfig,
  type BackendConfigCommon,
  type BackendOAuthConfig,
  DEFAULT_MAX_TIMEOUT_MS,
  DEFAULT_TIMEOUT_MS,
  type GatewayConfig,
  type OtlpConfig,
  type ProfileConfig,
  type RemoteBackendConfig,
  type StdioBackendConfig,
  type TelemetryConfig,
} from "./config/gateway-config.js";
export { type ConfigIssue, GatewayConfigError } from "./config/gateway-config-error.js";
export {
  type BackendConfigFile,
  BackendConfigSchema,
  type GatewayConfigFile,
  GatewayConfigFileSchema,
  OtlpConfigSchema,
  ProfileConfigSchema,
  RestartConfigSchema,
  RouterLimitsConfigSchema,
  TelemetryConfigSchema,
} from "./config/gateway-config-schema.js";
export {
  type AuditConfig,
  AuditConfigSchema,
  type ToolLimitConfig,
  ToolLimitConfigSchema,
  type ToolLimitsConfig,
  ToolLimitsConfigSchema,
} from "./config/governance-config-schema.js";
export { type ModernConfig, ModernConfigSchema } from "./config/modern-config-schema.js";
export {
  type ConfigTextFormat,
  configFormatOf,
  parseConfigText,
  stripJsonComments,
} from "./config/parse-config-text.js";
export {
  type ParsedGatewayConfig,
  type ParseGatewayConfigOptions,
  parseGatewayConfig,
} from "./config/parse-gateway-config.js";
export {
  collectConfigSecrets,
  REDACTED,
  redactArgs,
  redactBackendConfig,
  redactGatewayConfig,
  redactTelemetryConfig,
  redactUrl,
} from "./config/redact-config.js";
export { suggestKey } from "./config/suggest-key.js";
export { GATEWAY_ERROR_TABLE, GatewayErrorCode } from "./errors/gateway-error-code.js";
export {
  backendUnavailableError,
  createGatewayError,
  ERROR_DATA_ALLOW_LIST,
  INVALID_PARAMS,
  isWireError,
  MAX_ERROR_DATA_FIELD_LENGTH,
  MAX_ERROR_DETAIL_LENGTH,
  MAX_ERROR_MESSAGE_LENGTH,
  type MapBackendErrorOptions,
  mapBackendError,
  unknownNameError,
  type WireErrorObject,
} from "./errors/map-error.js";
export {
  BackendSignInRequiredError,
  SIGN_IN_REQUIRED,
  signInRequiredOf,
} from "./errors/sign-in-required.js";
export { RETRY_AFTER_META_KEY } from "./governance/call-governor.js";
export type {
  SharedToolLimits,
  SharedToolRateLimiter,
} from "./governance/shared-tool-limits.js";
export {
  type BackendLogger,
  type BackendLogLine,
  createBackendLogSink,
  describeBackendEvent,
} from "./lifecycle/backend-log-sink.js";
export {
  createRestartPolicy,
  DEFAULT_RESTART_POLICY,
  type RestartDecision,
  type RestartPolicy,
  type RestartPolicyOptions,
  type RestartPolicySettings,
} from "./lifecycle/restart-policy.js";
export { MAX_HELD_CALL_STATE_LENGTH } from "./modern/held-call-state.js";
export type {
  HeldCallLedger,
  ListChangeNotice,
  ListChangeRelay,
  ModernClusterOptions,
  ResourceUpdateListener,
  ResourceUpdateRelay,
} from "./modern/modern-cluster.js";
export type { ModernCallContext, ModernEndpoint } from "./modern/modern-endpoint.js";
export type { ModernRequestContext } from "./modern/modern-front.js";
export type { ModernCaching } from "./modern/modern-result.js";
export type { ModernFrontOptions } from "./modern/modern-settings.js";
export {
  checkNamespaceSeparator,
  createNameCodec,
  DEFAULT_NAME_LENGTH_BUDGET,
  DEFAULT_NAMESPACE_SEPARATOR,
  describeNamespaceProblem,
  MINIMUM_NAME_LENGTH_BUDGET,
  type NameCodec,
  type NameCodecOptions,
  NamespaceOptionsError,
  type QualifiedName,
  TOOL_NAME_PATTERN,
} from "./namespacing/qualified-name.js";
export {
  formatResourceUri,
  parseResourceUri,
  type QualifiedResourceUri,
  REWRITTEN_RESOURCE_URI_SCHEME,
  UI_RESOURCE_URI_SCHEME,
} from "./namespacing/resource-uri.js";
export { SHORT_HASH_LENGTH, shortHash } from "./namespacing/short-hash.js";
export {
  exposeUiResourceLinks,
  UI_EXTENSION_ID,
  uiResourceUrisOf,
} from "./namespacing/ui-resource-links.js";
export {
  applyToolOverride,
  type FixedArgumentsOutcome,
  fixedArgumentsToolError,
  injectFixedArguments,
  type ListedItem,
  mergeFixedArguments,
} from "./overrides/apply-tool-override.js";
export {
  type CatalogueShaping,
  DEFAULT_SCAN_MODE,
  describeFlagged,
  type FlaggedItem,
  type ShapedItem,
  shapeItem,
  shapingOf,
} from "./overrides/catalogue-shaping.js";
export { overrideIssues } from "./overrides/check-overrides.js";
export {
  type ExposedCandidate,
  type ShapedEntry,
  type ShapingContext,
  shapeExposed,
} from "./overrides/shape-exposed.js";
export {
  type OverridesConfig,
  OverridesConfigSchema,
  type ScanMode,
  ScanModeSchema,
  type ToolOverride,
  ToolOverrideSchema,
} from "./overrides/tool-override-schema.js";
export { canonicalJson } from "./pins/canonical-json.js";
export {
  identifierOf,
  PINNED_FIELDS,
  type PinKind,
  pinHash,
  pinnedDefinition,
} from "./pins/pin-definition.js";
export { describePinChange, type PinChange } from "./pins/pin-diff.js";
export {
  describeWithheld,
  PinGuard,
  type PinGuardOptions,
  type PinListing,
  pinNameOf,
  type RouterPins,
  type WithheldPin,
} from "./pins/pin-guard.js";
export {
  approvePins,
  EMPTY_PIN_SNAPSHOT,
  type PinEntry,
  type PinRecord,
  type PinSelector,
  type PinSnapshot,
  parsePinSelector,
  readPinSnapshot,
  type WithheldStatus,
} from "./pins/pin-snapshot.js";
export { createMemoryPinStore, type PinStore } from "./pins/pin-store.js";
export {
  DEFAULT_PIN_CHANGE_POLICY,
  type PinChangePolicy,
  type PinsConfig,
  type ResolvedPinsConfig,
  resolvePinsConfig,
} from "./pins/pins-config.js";
export { sha256Hex } from "./pins/sha256.js";
export {
  createRouter,
  GATEWAY_OWNER,
  type OwnerOfOptions,
  type Router,
  type RouterOptions,
} from "./router/create-router.js";
export type { RouterSessionEvent, RouterSessionListener } from "./router/router-sessions.js";
export { OPERATOR_VIEWER, type SessionViewer } from "./router/session-viewer.js";
export { UnknownProfileError } from "./router/unknown-profile-error.js";
export {
  DESCRIPTION_RULES,
  type DescriptionRule,
  INVISIBLE_CHARACTERS,
  type ScanRule,
} from "./scanning/description-rules.js";
export {
  EXCERPT_LENGTH,
  escapeInvisible,
  type ScanFinding,
  scanDescriptions,
  scanText,
} from "./scanning/scan-description.js";
export {
  GATEWAY_STATUS_TOOL,
  GATEWAY_TOOLS,
  GET_EVENTS_TOOL,
} from "./sessions/gateway-tools.js";
export { BACKEND_META_KEY, type RefusalCounts } from "./sessions/relay-to-client.js";
export type { RouterSession } from "./sessions/router-session.js";
