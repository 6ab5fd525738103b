import { InvalidParamsError } from "@patchbay/jsonrpc-core";
import {
  createSchemaCache,
  type JSONObject,
  type JsonSchemaCheckFunction,
  type JsonSchemaValidator,
  loadDefaultJsonSchemaValidator,
  type v2025_11_25,
} from "@patchbay/mcp-types";
import { InvalidToolOutputError } from "./errors/invalid-tool-output-error.js";

/** Most tools whose output schema a client remembers; past it the oldest is forgotten. */
export const MAX_REMEMBERED_OUTPUT_SCHEMAS = 10_000;

/** The client's JSON Schema checks: tool results against `outputSchema`, elicitation answers. */
export interface JsonSchemaChecks {
  /** Remembers the output schemas of listed tools (every `tools/list` page passes through). */
  rememberTools(tools: readonly v2025_11_25.Tool[]): void;
  /** Throws an `InvalidToolOutputError` when the result breaks the tool's output schema. */
  checkToolResult(name: string, result: v2025_11_25.CallToolResult): Promise<void>;
  /** Throws an `InvalidParamsError` when an accepted form answer breaks the requested schema. */
  checkElicitationAnswer(
    params: v2025_11_25.ElicitRequestParams,
    result: v2025_11_25.ElicitResult,
  ): Promise<void>;
}

/** Creates the checks with `validator`, or ajv (loaded on first use) when none is given. */
export function createJsonSchemaChecks(validator?: JsonSchemaValidator): JsonSchemaChecks {
  let cache: Promise<ReturnType<typeof createSchemaCache>> | undefined;
  const compile = async (schema: JSONObject): Promise<JsonSchemaCheckFunction> => {
    cache ??= (
      validator === undefined ? loadDefaultJsonSchemaValidator() : Promise.resolve(validator)
    ).then(createSchemaCache);
    return (await cache)(schema);
  };
  const outputSchemas = new Map<string, JSONObject>();
  return {
    rememberTools(tools) {
      for (const tool of tools) {
        outputSchemas.delete(tool.name);
        if (tool.outputSchema === undefined) continue;
        outputSchemas.set(tool.name, tool.outputSchema as JSONObject);
        if (outputSchemas.size > MAX_REMEMBERED_OUTPUT_SCHEMAS) {
          outputSchemas.delete(outputSchemas.keys().next().value as string);
        }
      }
    },
    async checkToolResult(name, result) {
      const schema = outputSchemas.get(name);
      if (schema === undefined || result.isError === true) return;
      if (result.structuredContent === undefined) {
        throw new InvalidToolOutputError(name, "the tool has an output schema but returned none");
      }
      const check = (await compile(schema))(result.structuredContent);
      if (!check.valid) throw new InvalidToolOutputError(name, check.problem);
    },
    async checkElicitationAnswer(params, result) {
      if (result.action !== "accept" || result.content === undefined) return;
      if (params.mode === "url" || !("requestedSchema" in params)) return;
      const check = (await compile(params.requestedSchema as JSONObject))(result.content);
      if (!check.valid) {
        throw new InvalidParamsError(
          `The elicitation answer does not match the requested schema: ${check.problem}`,
        );
      }
    },
  };
}
