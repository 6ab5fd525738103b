import { InvalidParamsError } from "@patchbay/jsonrpc-core";
import type { v2025_11_25 } from "@patchbay/mcp-types";
import { type CompletionProvider, MAX_COMPLETION_VALUES } from "../completion-provider.js";
import type { SessionHost } from "../session-host.js";
import type { HandlerScope } from "./handler-scope.js";

/** `completion/complete` for prompt arguments and template variables (MCP "Completion"). */
export function installCompletionHandler(scope: HandlerScope): void {
  const { host } = scope;
  scope.handle("completion/complete", async (params, context) => {
    const { ref, argument } = params;
    if (
      !isObject(argument) ||
      typeof argument.name !== "string" ||
      typeof argument.value !== "string"
    ) {
      throw new InvalidParamsError('completion/complete: "argument" must be {name, value} strings');
    }
    const provider = findProvider(host, ref, argument.name);
    const given =
      isObject(params.context) && isObject(params.context.arguments)
        ? params.context.arguments
        : {};
    const otherArguments = Object.fromEntries(
      Object.entries(given).filter(
        (entry): entry is [string, string] => typeof entry[1] === "string",
      ),
    );
    const values =
      provider === undefined
        ? []
        : await provider(argument.value, { arguments: otherArguments, request: context });
    const completion: v2025_11_25.CompleteResult["completion"] = {
      values: values.slice(0, MAX_COMPLETION_VALUES),
      total: values.length,
      hasMore: values.length > MAX_COMPLETION_VALUES,
    };
    return { completion };
  });
}

function findProvider(
  host: SessionHost,
  ref: unknown,
  name: string,
): CompletionProvider | undefined {
  if (!isObject(ref)) throw new InvalidParamsError('completion/complete: "ref" must be an object');
  if (ref.type === "ref/prompt" && typeof ref.name === "string") {
    const prompt = host.prompts.get(ref.name);
    if (prompt === undefined) throw new InvalidParamsError(`Unknown prompt: ${ref.name}`);
    return prompt.arguments.find((candidate) => candidate.name === name)?.complete;
  }
  if (ref.type === "ref/resource" && typeof ref.uri === "string") {
    const uri = ref.uri;
    const template = host.resourceTemplates
      .values()
      .find((entry) => entry.definition.uriTemplate === uri);
    if (template !== undefined) return template.complete[name];
    if (host.resources.get(uri) !== undefined) return undefined;
    throw new InvalidParamsError(`Unknown resource template: ${uri}`);
  }
  throw new InvalidParamsError('completion/complete: "ref" must be a ref/prompt or ref/resource');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
