import type { z } from "zod";
import type { ProtocolVersion } from "../versions.js";
import { defineNotificationDescriptor, defineRequestDescriptor } from "./method-descriptor.js";

/** The schemas a legacy revision provides for the methods every legacy revision has. */
export interface LegacyCoreSchemas {
  CallToolRequestParamsSchema: z.ZodType;
  CallToolResultSchema: z.ZodType;
  CancelledNotificationParamsSchema: z.ZodType;
  CompleteRequestParamsSchema: z.ZodType;
  CompleteResultSchema: z.ZodType;
  CreateMessageRequestParamsSchema: z.ZodType;
  CreateMessageResultSchema: z.ZodType;
  EmptyResultSchema: z.ZodType;
  GetPromptRequestParamsSchema: z.ZodType;
  GetPromptResultSchema: z.ZodType;
  InitializeRequestParamsSchema: z.ZodType;
  InitializeResultSchema: z.ZodType;
  InitializedNotificationParamsSchema: z.ZodType;
  ListPromptsRequestParamsSchema: z.ZodType;
  ListPromptsResultSchema: z.ZodType;
  ListResourceTemplatesRequestParamsSchema: z.ZodType;
  ListResourceTemplatesResultSchema: z.ZodType;
  ListResourcesRequestParamsSchema: z.ZodType;
  ListResourcesResultSchema: z.ZodType;
  ListRootsRequestParamsSchema: z.ZodType;
  ListRootsResultSchema: z.ZodType;
  ListToolsRequestParamsSchema: z.ZodType;
  ListToolsResultSchema: z.ZodType;
  LoggingMessageNotificationParamsSchema: z.ZodType;
  OptionalNotificationParamsSchema: z.ZodType;
  PingRequestParamsSchema: z.ZodType;
  ProgressNotificationParamsSchema: z.ZodType;
  ReadResourceRequestParamsSchema: z.ZodType;
  ReadResourceResultSchema: z.ZodType;
  ResourceUpdatedNotificationParamsSchema: z.ZodType;
  SetLevelRequestParamsSchema: z.ZodType;
  SubscribeRequestParamsSchema: z.ZodType;
  UnsubscribeRequestParamsSchema: z.ZodType;
}

/**
 * Descriptors of the methods every legacy revision (2024-11-05 to 2025-11-25) has, built from one
 * revision's schemas; later revisions add their new methods next to these.
 */
export function createLegacyCoreMethods<Schemas extends LegacyCoreSchemas>(
  revision: ProtocolVersion,
  s: Schemas,
) {
  return {
    initialize: defineRequestDescriptor(
      revision,
      "initialize",
      s.InitializeRequestParamsSchema,
      s.InitializeResultSchema,
    ),
    "notifications/initialized": defineNotificationDescriptor(
      revision,
      "notifications/initialized",
      s.InitializedNotificationParamsSchema,
    ),
    ping: defineRequestDescriptor(revision, "ping", s.PingRequestParamsSchema, s.EmptyResultSchema),
    "notifications/cancelled": defineNotificationDescriptor(
      revision,
      "notifications/cancelled",
      s.CancelledNotificationParamsSchema,
    ),
    "notifications/progress": defineNotificationDescriptor(
      revision,
      "notifications/progress",
      s.ProgressNotificationParamsSchema,
    ),
    "tools/list": defineRequestDescriptor(
      revision,
      "tools/list",
      s.ListToolsRequestParamsSchema,
      s.ListToolsResultSchema,
    ),
    "tools/call": defineRequestDescriptor(
      revision,
      "tools/call",
      s.CallToolRequestParamsSchema,
      s.CallToolResultSchema,
    ),
    "notifications/tools/list_changed": defineNotificationDescriptor(
      revision,
      "notifications/tools/list_changed",
      s.OptionalNotificationParamsSchema,
    ),
    "resources/list": defineRequestDescriptor(
      revision,
      "resources/list",
      s.ListResourcesRequestParamsSchema,
      s.ListResourcesResultSchema,
    ),
    "resources/templates/list": defineRequestDescriptor(
      revision,
      "resources/templates/list",
      s.ListResourceTemplatesRequestParamsSchema,
      s.ListResourceTemplatesResultSchema,
    ),
    "resources/read": defineRequestDescriptor(
      revision,
      "resources/read",
      s.ReadResourceRequestParamsSchema,
      s.ReadResourceResultSchema,
    ),
    "resources/subscribe": defineRequestDescriptor(
      revision,
      "resources/subscribe",
      s.SubscribeRequestParamsSchema,
      s.EmptyResultSchema,
    ),
    "resources/unsubscribe": defineRequestDescriptor(
      revision,
      "resources/unsubscribe",
      s.UnsubscribeRequestParamsSchema,
      s.EmptyResultSchema,
    ),
    "notifications/resources/list_changed": defineNotificationDescriptor(
      revision,
      "notifications/resources/list_changed",
      s.OptionalNotificationParamsSchema,
    ),
    "notifications/resources/updated": defineNotificationDescriptor(
      revision,
      "notifications/resources/updated",
      s.ResourceUpdatedNotificationParamsSchema,
    ),
    "prompts/list": defineRequestDescriptor(
      revision,
      "prompts/list",
      s.ListPromptsRequestParamsSchema,
      s.ListPromptsResultSchema,
    ),
    "prompts/get": defineRequestDescriptor(
      revision,
      "prompts/get",
      s.GetPromptRequestParamsSchema,
      s.GetPromptResultSchema,
    ),
    "notifications/prompts/list_changed": defineNotificationDescriptor(
      revision,
      "notifications/prompts/list_changed",
      s.OptionalNotificationParamsSchema,
    ),
    "completion/complete": defineRequestDescriptor(
      revision,
      "completion/complete",
      s.CompleteRequestParamsSchema,
      s.CompleteResultSchema,
    ),
    "logging/setLevel": defineRequestDescriptor(
      revision,
      "logging/setLevel",
      s.SetLevelRequestParamsSchema,
      s.EmptyResultSchema,
    ),
    "notifications/message": defineNotificationDescriptor(
      revision,
      "notifications/message",
      s.LoggingMessageNotificationParamsSchema,
    ),
    "sampling/createMessage": defineRequestDescriptor(
      revision,
      "sampling/createMessage",
      s.CreateMessageRequestParamsSchema,
      s.CreateMessageResultSchema,
    ),
    "roots/list": defineRequestDescriptor(
      revision,
      "roots/list",
      s.ListRootsRequestParamsSchema,
      s.ListRootsResultSchema,
    ),
    "notifications/roots/list_changed": defineNotificationDescriptor(
      revision,
      "notifications/roots/list_changed",
      s.OptionalNotificationParamsSchema,
    ),
  } as const;
}
