import type { Meta, v2025_11_25 } from "@patchbay/mcp-types";
import type { RequestHandlerContext } from "./request-handler-context.js";

/** How a static resource is described in `resources/list`. */
export interface ResourceConfig {
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  icons?: v2025_11_25.Icon[];
  annotations?: v2025_11_25.Annotations;
  _meta?: Meta;
}

/** Reads a static resource. */
export type ResourceReader = (
  uri: string,
  context: RequestHandlerContext,
) => v2025_11_25.ReadResourceResult | Promise<v2025_11_25.ReadResourceResult>;

/** A static resource as the registry keeps it. */
export interface ResourceEntry {
  readonly uri: string;
  readonly definition: v2025_11_25.Resource;
  readonly read: ResourceReader;
}

/** Computes the published definition of a static resource. */
export function createResourceEntry(
  name: string,
  uri: string,
  config: ResourceConfig,
  read: ResourceReader,
): ResourceEntry {
  return { uri, definition: { uri, name, ...config }, read };
}
