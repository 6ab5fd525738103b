import type { ToolOverride } from "./tool-override-schema.js";

/** A tool or prompt as a backend lists it (the catalogue's `NamedItem`). */
export interface ListedItem {
  readonly name: string;
  readonly [key: string]: unknown;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The tool as clients see it under `override`: description replaced and/or appended to, annotations
 * merged, fixed parameters gone from `inputSchema` (its `properties` and `required`). The name is
 * left to the catalogue, which namespaces it.
 */
export function applyToolOverride(
  tool: ListedItem,
  override: ToolOverride | undefined,
): ListedItem {
  if (override === undefined) return tool;
  const shaped: JsonObject = { ...tool };
  const base = override.description ?? (tool.description as string | undefined);
  if (override.appendDescription !== undefined) {
    shaped.description =
      base === undefined || base === ""
        ? override.appendDescription
        : `${base}\n\n${override.appendDescription}`;
  } else if (base !== undefined) {
    shaped.description = base;
  }
  if (override.annotations !== undefined) {
    const own = isObject(tool.annotations) ? tool.annotations : {};
    shaped.annotations = { ...own, ...override.annotations };
  }
  const fixed = Object.keys(override.fixedArguments ?? {});
  if (fixed.length > 0 && isObject(tool.inputSchema)) {
    shaped.inputSchema = withoutParameters(tool.inputSchema, fixed);
  }
  return shaped as ListedItem;
}

function withoutParameters(schema: JsonObject, names: readonly string[]): JsonObject {
  const copy: JsonObject = { ...schema };
  if (isObject(schema.properties)) {
    copy.properties = Object.fromEntries(
      Object.entries(schema.properties).filter(([key]) => !names.includes(key)),
    );
  }
  if (Array.isArray(schema.required)) {
    copy.required = schema.required.filter((key) => !names.includes(String(key)));
  }
  return copy;
}

/** The fixed arguments of a backend override and a profile's on top of it (the profile's win). */
export function mergeFixedArguments(
  ...overrides: readonly (ToolOverride | undefined)[]
): Readonly<Record<string, unknown>> | undefined {
  let merged: Record<string, unknown> | undefined;
  for (const override of overrides) {
    if (override?.fixedArguments === undefined) continue;
    merged = { ...merged, ...override.fixedArguments };
  }
  return merged;
}

/** What `injectFixedArguments` gives: the call's new params, or the names a client may not send. */
export type FixedArgumentsOutcome =
  | { readonly params: JsonObject }
  | { readonly refused: readonly string[] };

/**
 * A `tools/call`'s params with the fixed arguments added, or the fixed parameters the client tried
 * to set itself (the gateway answers those with a tool error, so the model sees which).
 */
export function injectFixedArguments(
  params: JsonObject,
  fixed: Readonly<Record<string, unknown>>,
): FixedArgumentsOutcome {
  const sent = isObject(params.arguments) ? params.arguments : {};
  const refused = Object.keys(fixed).filter((key) => Object.hasOwn(sent, key));
  if (refused.length > 0) return { refused };
  return { params: { ...params, arguments: { ...sent, ...fixed } } };
}

/** The tool error answering a call that set fixed parameters. */
export function fixedArgumentsToolError(tool: string, refused: readonly string[]): JsonObject {
  const list = refused.map((name) => `"${name}"`).join(", ");
  const noun = refused.length === 1 ? "argument" : "arguments";
  return {
    content: [
      {
        type: "text",
        text: `Tool ${tool}: ${noun} ${list} ${refused.length === 1 ? "is" : "are"} set by the gateway and may not be sent.`,
      },
    ],
    isError: true,
  };
}
