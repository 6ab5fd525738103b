import type { Meta, v2025_11_25 } from "@patchbay/mcp-types";
import type { CompletionProvider } from "./completion-provider.js";
import type { RequestHandlerContext } from "./request-handler-context.js";
import { UriTemplate } from "./uri-template.js";

/** How a resource template is described in `resources/templates/list`, and how its variables complete. */
export interface ResourceTemplateConfig {
  title?: string;
  description?: string;
  mimeType?: string;
  icons?: v2025_11_25.Icon[];
  annotations?: v2025_11_25.Annotations;
  _meta?: Meta;
  /** Completion providers by variable name (`completion/complete` with `ref/resource`). */
  complete?: Readonly<Record<string, CompletionProvider>>;
}

/** Reads a resource whose URI matched the template; `variables` are decoded. */
export type ResourceTemplateReader = (
  uri: string,
  variables: Readonly<Record<string, string>>,
  context: RequestHandlerContext,
) => v2025_11_25.ReadResourceResult | Promise<v2025_11_25.ReadResourceResult>;

/** A resource template as the registry keeps it. */
export interface ResourceTemplateEntry {
  readonly template: UriTemplate;
  readonly definition: v2025_11_25.ResourceTemplate;
  readonly complete: Readonly<Record<string, CompletionProvider>>;
  readonly read: ResourceTemplateReader;
}

/** Parses the template (throwing on a malformed one) and computes its published definition. */
export function createResourceTemplateEntry(
  name: string,
  uriTemplate: string,
  config: ResourceTemplateConfig,
  read: ResourceTemplateReader,
): ResourceTemplateEntry {
  const template = new UriTemplate(uriTemplate);
  const { complete = {}, ...described } = config;
  for (const variable of Object.keys(complete)) {
    if (!template.variableNames.includes(variable)) {
      throw new TypeError(`Template ${uriTemplate} has no variable "${variable}" to complete`);
    }
  }
  return { template, definition: { uriTemplate, name, ...described }, complete, read };
}
