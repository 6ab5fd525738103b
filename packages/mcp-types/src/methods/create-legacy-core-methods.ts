import type { z } from "zod";
import type { ProtocolVersion } from "../versions.js";
import {
  defineNotificationDescriptor,
  defineRequestDescriptor,
  type McpNotificationDescriptor,
  type McpRequestDescriptor,
  type TableDirection,
} from "./method-descriptor.js";
import type { McpMethod } from "./method-table.js";

/**
 * The methods every legacy revision (2024-11-05 to 2025-11-25) has, with the names of the schemas
 * each revision exports for them: `[params, result]` for a request, `[params]` for a notification.
 */
export const LEGACY_CORE_METHOD_SCHEMAS = {
  initialize: ["InitializeRequestParamsSchema", "InitializeResultSchema"],
  "notifications/initialized": ["InitializedNotificationParamsSchema"],
  ping: ["PingRequestParamsSchema", "EmptyResultSchema"],
  "notifications/cancelled": ["CancelledNotificationParamsSchema"],
  "notifications/progress": ["ProgressNotificationParamsSchema"],
  "tools/list": ["ListToolsRequestParamsSchema", "ListToolsResultSchema"],
  "tools/call": ["CallToolRequestParamsSchema", "CallToolResultSchema"],
  "notifications/tools/list_changed": ["OptionalNotificationParamsSchema"],
  "resources/list": ["ListResourcesRequestParamsSchema", "ListResourcesResultSchema"],
  "resources/templates/list": [
    "ListResourceTemplatesRequestParamsSchema",
    "ListResourceTemplatesResultSchema",
  ],
  "resources/read": ["ReadResourceRequestParamsSchema", "ReadResourceResultSchema"],
  "resources/subscribe": ["SubscribeRequestParamsSchema", "EmptyResultSchema"],
  "resources/unsubscribe": ["UnsubscribeRequestParamsSchema", "EmptyResultSchema"],
  "notifications/resources/list_changed": ["OptionalNotificationParamsSchema"],
  "notifications/resources/updated": ["ResourceUpdatedNotificationParamsSchema"],
  "prompts/list": ["ListPromptsRequestParamsSchema", "ListPromptsResultSchema"],
  "prompts/get": ["GetPromptRequestParamsSchema", "GetPromptResultSchema"],
  "notifications/prompts/list_changed": ["OptionalNotificationParamsSchema"],
  "completion/complete": ["CompleteRequestParamsSchema", "CompleteResultSchema"],
  "logging/setLevel": ["SetLevelRequestParamsSchema", "EmptyResultSchema"],
  "notifications/message": ["LoggingMessageNotificationParamsSchema"],
  "sampling/createMessage": ["CreateMessageRequestParamsSchema", "CreateMessageResultSchema"],
  "roots/list": ["ListRootsRequestParamsSchema", "ListRootsResultSchema"],
  "notifications/roots/list_changed": ["OptionalNotificationParamsSchema"],
} as const satisfies Partial<Record<McpMethod, readonly [string] | readonly [string, string]>>;

type Table = typeof LEGACY_CORE_METHOD_SCHEMAS;
type SchemaName = Table[keyof Table][number];

/** The schemas a legacy revision provides for the methods every legacy revision has. */
export type LegacyCoreSchemas = Record<SchemaName, z.ZodType>;

/** The descriptors `createLegacyCoreMethods` builds, typed with the revision's own schemas. */
export type LegacyCoreMethods<Schemas extends LegacyCoreSchemas> = {
  readonly [Method in keyof Table]: Table[Method] extends readonly [
    infer Params extends SchemaName,
    infer Result extends SchemaName,
  ]
    ? McpRequestDescriptor<Method, Schemas[Params], Schemas[Result], TableDirection<Method>>
    : Table[Method] extends readonly [infer Params extends SchemaName]
      ? McpNotificationDescriptor<Method, Schemas[Params], TableDirection<Method>>
      : never;
};

/**
 * Descriptors of the methods every legacy revision has, built from one revision's schemas; later
 * revisions add their new methods next to these.
 */
export function createLegacyCoreMethods<Schemas extends LegacyCoreSchemas>(
  revision: ProtocolVersion,
  schemas: Schemas,
): LegacyCoreMethods<Schemas> {
  const methods: Record<string, unknown> = {};
  for (const [method, names] of Object.entries(LEGACY_CORE_METHOD_SCHEMAS) as [
    keyof Table,
    readonly SchemaName[],
  ][]) {
    const [params, result] = names;
    methods[method] =
      result === undefined
        ? defineNotificationDescriptor(revision, method, schemas[params as SchemaName])
        : defineRequestDescriptor(revision, method, schemas[params as SchemaName], schemas[result]);
  }
  return methods as LegacyCoreMethods<Schemas>;
}
