import type * as sdkV2 from "@modelcontextprotocol/client";
import type * as sdkV1 from "@modelcontextprotocol/sdk/types.js";
import { describe, expectTypeOf, it } from "vitest";
import type { v2025_11_25, v2026_07_28 } from "../src/index.js";

/*
 * Our object types are loose (an index signature keeps unknown fields), so they are not identical
 * to the SDK's; what matters is that a value of either type can be used as the other. Each test
 * checks both directions.
 */

describe("inferred 2025-11-25 types are interchangeable with SDK 1.32.2's", () => {
  it("Tool", () => {
    expectTypeOf<v2025_11_25.Tool>().toExtend<sdkV1.Tool>();
    expectTypeOf<sdkV1.Tool>().toExtend<v2025_11_25.Tool>();
  });
  it("CallToolResult", () => {
    expectTypeOf<v2025_11_25.CallToolResult>().toExtend<sdkV1.CallToolResult>();
    expectTypeOf<sdkV1.CallToolResult>().toExtend<v2025_11_25.CallToolResult>();
  });
  it("InitializeResult", () => {
    expectTypeOf<v2025_11_25.InitializeResult>().toExtend<sdkV1.InitializeResult>();
    expectTypeOf<sdkV1.InitializeResult>().toExtend<v2025_11_25.InitializeResult>();
  });
  it("Resource", () => {
    expectTypeOf<v2025_11_25.Resource>().toExtend<sdkV1.Resource>();
    expectTypeOf<sdkV1.Resource>().toExtend<v2025_11_25.Resource>();
  });
  it("Prompt", () => {
    expectTypeOf<v2025_11_25.Prompt>().toExtend<sdkV1.Prompt>();
    expectTypeOf<sdkV1.Prompt>().toExtend<v2025_11_25.Prompt>();
  });
  it("content blocks", () => {
    expectTypeOf<v2025_11_25.ContentBlock>().toExtend<sdkV1.ContentBlock>();
    expectTypeOf<sdkV1.ContentBlock>().toExtend<v2025_11_25.ContentBlock>();
    expectTypeOf<v2025_11_25.TextContent>().toExtend<sdkV1.TextContent>();
    expectTypeOf<sdkV1.TextContent>().toExtend<v2025_11_25.TextContent>();
    expectTypeOf<v2025_11_25.ImageContent>().toExtend<sdkV1.ImageContent>();
    expectTypeOf<sdkV1.ImageContent>().toExtend<v2025_11_25.ImageContent>();
    expectTypeOf<v2025_11_25.EmbeddedResource>().toExtend<sdkV1.EmbeddedResource>();
    expectTypeOf<sdkV1.EmbeddedResource>().toExtend<v2025_11_25.EmbeddedResource>();
    expectTypeOf<v2025_11_25.ResourceLink>().toExtend<sdkV1.ResourceLink>();
    expectTypeOf<sdkV1.ResourceLink>().toExtend<v2025_11_25.ResourceLink>();
  });
  it("notification params", () => {
    expectTypeOf<v2025_11_25.ResourceUpdatedNotificationParams>().toExtend<sdkV1.ResourceUpdatedNotificationParams>();
    expectTypeOf<sdkV1.ResourceUpdatedNotificationParams>().toExtend<v2025_11_25.ResourceUpdatedNotificationParams>();
    expectTypeOf<v2025_11_25.ElicitationCompleteNotificationParams>().toExtend<sdkV1.ElicitationCompleteNotificationParams>();
    expectTypeOf<sdkV1.ElicitationCompleteNotificationParams>().toExtend<v2025_11_25.ElicitationCompleteNotificationParams>();
    expectTypeOf<v2025_11_25.LoggingMessageNotificationParams>().toExtend<sdkV1.LoggingMessageNotificationParams>();
    expectTypeOf<sdkV1.LoggingMessageNotificationParams>().toExtend<v2025_11_25.LoggingMessageNotificationParams>();
  });
  it("the fields of the main shapes are the same", () => {
    expectTypeOf<v2025_11_25.TextContent["text"]>().toEqualTypeOf<sdkV1.TextContent["text"]>();
    expectTypeOf<v2025_11_25.ContentBlock["type"]>().toEqualTypeOf<sdkV1.ContentBlock["type"]>();
    expectTypeOf<v2025_11_25.Tool["name"]>().toEqualTypeOf<sdkV1.Tool["name"]>();
    expectTypeOf<v2025_11_25.CallToolResult["isError"]>().toEqualTypeOf<
      sdkV1.CallToolResult["isError"]
    >();
  });
});

/*
 * 2026-07-28 says servers MUST send `resultType` (and `ttlMs`/`cacheScope` on discover and lists);
 * SDK 2.4's types leave them out of their shapes, so an SDK value is ours once it carries them.
 */
type Complete<Result> = Result & { resultType: string };
type Cacheable<Result> = Complete<Result> & { ttlMs: number; cacheScope: "public" | "private" };

describe("inferred 2026-07-28 types are interchangeable with SDK 2.4.0's", () => {
  it("Tool", () => {
    expectTypeOf<v2026_07_28.Tool>().toExtend<sdkV2.Tool>();
    expectTypeOf<sdkV2.Tool>().toExtend<v2026_07_28.Tool>();
  });
  it("CallToolResult", () => {
    expectTypeOf<v2026_07_28.CallToolResult>().toExtend<sdkV2.CallToolResult>();
    expectTypeOf<Complete<sdkV2.CallToolResult>>().toExtend<v2026_07_28.CallToolResult>();
  });
  it("DiscoverResult", () => {
    expectTypeOf<v2026_07_28.DiscoverResult>().toExtend<sdkV2.DiscoverResult>();
    expectTypeOf<Cacheable<sdkV2.DiscoverResult>>().toExtend<v2026_07_28.DiscoverResult>();
  });
  it("Resource and Prompt", () => {
    expectTypeOf<v2026_07_28.Resource>().toExtend<sdkV2.Resource>();
    expectTypeOf<sdkV2.Resource>().toExtend<v2026_07_28.Resource>();
    expectTypeOf<v2026_07_28.Prompt>().toExtend<sdkV2.Prompt>();
    expectTypeOf<sdkV2.Prompt>().toExtend<v2026_07_28.Prompt>();
  });
  it("content blocks", () => {
    expectTypeOf<v2026_07_28.ContentBlock>().toExtend<sdkV2.ContentBlock>();
    expectTypeOf<sdkV2.ContentBlock>().toExtend<v2026_07_28.ContentBlock>();
  });
  it("InputRequiredResult and ListToolsResult", () => {
    // SDK 2.4 declares InputRequiredResult as an interface with exact optional properties, so
    // zod's `T | undefined` optionals only go one way under exactOptionalPropertyTypes.
    expectTypeOf<sdkV2.InputRequiredResult>().toExtend<v2026_07_28.InputRequiredResult>();
    expectTypeOf<v2026_07_28.ListToolsResult>().toExtend<sdkV2.ListToolsResult>();
    expectTypeOf<Cacheable<sdkV2.ListToolsResult>>().toExtend<v2026_07_28.ListToolsResult>();
  });
  it("the result type field is required by us, not by the SDK", () => {
    expectTypeOf<sdkV2.CallToolResult>().not.toExtend<v2026_07_28.CallToolResult>();
  });
});
