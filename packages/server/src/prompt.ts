import { InvalidParamsError } from "@patchbay/jsonrpc-core";
import type { Meta, v2025_11_25 } from "@patchbay/mcp-types";
import type { CompletionProvider } from "./completion-provider.js";
import type { RequestHandlerContext } from "./request-handler-context.js";

/** A prompt argument, optionally with a completion provider. */
export interface PromptArgumentConfig extends v2025_11_25.PromptArgument {
  /** Suggests values (`completion/complete` with `ref/prompt`). */
  complete?: CompletionProvider;
}

/** How a prompt is described in `prompts/list`. */
export interface PromptConfig {
  title?: string;
  description?: string;
  arguments?: readonly PromptArgumentConfig[];
  icons?: v2025_11_25.Icon[];
  _meta?: Meta;
}

/** Builds the prompt's messages from its arguments. */
export type PromptHandler = (
  args: Readonly<Record<string, string>>,
  context: RequestHandlerContext,
) => v2025_11_25.GetPromptResult | Promise<v2025_11_25.GetPromptResult>;

/** A prompt as the registry keeps it. */
export interface PromptEntry {
  readonly name: string;
  readonly definition: v2025_11_25.Prompt;
  readonly arguments: readonly PromptArgumentConfig[];
  readonly handler: PromptHandler;
}

/** Computes the published definition of a prompt. */
export function createPromptEntry(
  name: string,
  config: PromptConfig,
  handler: PromptHandler,
): PromptEntry {
  const { arguments: argumentConfigs = [], ...described } = config;
  const definition: v2025_11_25.Prompt = { name, ...described };
  if (argumentConfigs.length > 0) {
    definition.arguments = argumentConfigs.map(({ complete: _complete, ...argument }) => argument);
  }
  return { name, definition, arguments: argumentConfigs, handler };
}

/** Checks `prompts/get` arguments: strings only, every required one present (else -32602). */
export function checkPromptArguments(entry: PromptEntry, args: unknown): Record<string, string> {
  const given = (typeof args === "object" && args !== null ? args : {}) as Record<string, unknown>;
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(given)) {
    if (typeof value !== "string") {
      throw new InvalidParamsError(`Prompt ${entry.name}: argument "${key}" must be a string`);
    }
    result[key] = value;
  }
  const missing = entry.arguments
    .filter((argument) => argument.required === true && result[argument.name] === undefined)
    .map((argument) => argument.name);
  if (missing.length > 0) {
    throw new InvalidParamsError(
      `Prompt ${entry.name}: missing required argument(s) ${missing.join(", ")}`,
      { missing },
    );
  }
  return result;
}
