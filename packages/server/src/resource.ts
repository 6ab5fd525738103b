import type { Annotations, Icon, Meta, ReadResourceResult, Resource } from "./protocol-types.js";
import type { RequestHandlerContext } from "./request-handler-context.js";

/** How a static resource is described in `resources/list`. */
export interface ResourceConfig {
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  icons?: Icon[];
  annotations?: Annotations;
  _meta?: Meta;
}

/** Reads a static resource. */
export type ResourceReader = (
  uri: string,
  context: RequestHandlerContext,
) => ReadResourceResult | Promise<ReadResourceResult>;

/** A static resource as the registry keeps it. */
export interface ResourceEntry {
  readonly uri: string;
  readonly definition: Resource;
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
