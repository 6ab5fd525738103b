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
export { compileResourceTemplate } from "./catalogue/resource-template-pattern.js";
export { GATEWAY_ERROR_TABLE, GatewayErrorCode } from "./errors/gateway-error-code.js";
export {
  backendUnavailableError,
  createGatewayError,
  INVALID_PARAMS,
  isWireError,
  mapBackendError,
  unknownNameError,
  type WireErrorObject,
} from "./errors/map-error.js";
export {
  createIdRewriteMap,
  type IdOrigin,
  type IdRewriteMap,
  type IdRewriteMapOptions,
  type RewritableId,
} from "./forwarding/id-rewrite-map.js";
export {
  type Clock,
  createRestartPolicy,
  DEFAULT_RESTART_POLICY,
  type RestartDecision,
  type RestartPolicy,
  type RestartPolicyOptions,
  type RestartPolicySettings,
} from "./lifecycle/restart-policy.js";
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
} from "./namespacing/resource-uri.js";
export { SHORT_HASH_LENGTH, shortHash } from "./namespacing/short-hash.js";
