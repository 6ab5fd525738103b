import { JSONRPCError } from "@patchbay/jsonrpc-core";
import {
  type JSONObject,
  type Meta,
  type ParamHeaderDeclaration,
  scanParamHeaders,
  type v2025_11_25,
  validateToolName,
} from "@patchbay/mcp-types";
import type { z } from "zod";
import {
  type CompileJsonSchema,
  checkSchema,
  type SchemaInput,
  toToolJsonSchema,
} from "./input-schema.js";
import type { RequestHandlerContext } from "./request-handler-context.js";

type Infer<Schema> = Schema extends z.ZodType ? z.output<Schema> : JSONObject;

/** How a tool is described and validated. */
export interface ToolConfig<
  Input extends SchemaInput | undefined = undefined,
  Output extends SchemaInput | undefined = undefined,
> {
  /** Display name (2025-06-18); `name` stays the programmatic id. */
  title?: string;
  description?: string;
  /** Zod schema of the arguments (published as JSON Schema), or a raw JSON Schema published as is. */
  inputSchema?: Input;
  /** Zod schema (or plain JSON Schema) of `structuredContent` (2025-06-18); results are checked against it. */
  outputSchema?: Output;
  annotations?: v2025_11_25.ToolAnnotations;
  icons?: v2025_11_25.Icon[];
  _meta?: Meta;
  /**
   * Task support: a modern call from a client that declared the extension
   * `io.modelcontextprotocol/tasks`, or a 2025-11-25 call with `params.task`, is answered with a task
   * that runs the handler in the background. `optional`: other calls get the result directly;
   * `required`: modern ones get -32021, 2025-11-25 ones -32601.
   */
  taskSupport?: "optional" | "required";
  /**
   * The handler starts the task itself with `context.startTask()` (after gathering input by MRTR
   * rounds) instead of the server starting it before the handler runs.
   */
  deferTask?: boolean;
}

/**
 * A tool's result. With an output schema the handler may return only `structuredContent`: the
 * server adds its JSON as a text block, as the spec recommends for older clients.
 */
export type ToolResult<Output> = Output extends z.ZodType
  ?
      | (StructuredFields & {
          content?: v2025_11_25.CallToolResult["content"];
          structuredContent: z.input<Output>;
        })
      | (v2025_11_25.CallToolResult & { isError: true })
  : v2025_11_25.CallToolResult;

// CallToolResult has an index signature (unknown fields pass through), so `Omit` would keep only
// that signature and drop the known fields' types; pick the known fields by name instead.
type StructuredFields = Pick<v2025_11_25.CallToolResult, "isError" | "_meta"> & {
  [key: string]: unknown;
};

/** Runs a tool with validated arguments. */
export type ToolHandler<Input, Output> = (
  args: Infer<Input>,
  context: RequestHandlerContext,
) => ToolResult<Output> | Promise<ToolResult<Output>>;

/** A tool as the registry keeps it. */
export interface ToolEntry {
  readonly name: string;
  readonly config: ToolConfig<SchemaInput | undefined, SchemaInput | undefined>;
  readonly handler: (args: never, context: RequestHandlerContext) => unknown;
  /** The `tools/list` entry, computed once at registration. */
  readonly definition: v2025_11_25.Tool;
  /** Its parameters mirrored into `Mcp-Param-*` headers (`x-mcp-header`, 2026-07-28 over HTTP). */
  readonly paramHeaders: readonly ParamHeaderDeclaration[];
}

/**
 * Validates the name (1-128 of `[A-Za-z0-9_.-]`, MCP 2025-11-25 "Tool names") and the schemas, and
 * computes the published definition; throws a `TypeError` saying what is wrong.
 */
export function createToolEntry(
  name: string,
  config: ToolConfig<SchemaInput | undefined, SchemaInput | undefined>,
  handler: ToolEntry["handler"],
): ToolEntry {
  const validation = validateToolName(name);
  if (!validation.valid)
    throw new TypeError(`Invalid tool name ${JSON.stringify(name)}: ${validation.message}`);
  const definition: v2025_11_25.Tool = {
    name,
    inputSchema: toToolJsonSchema(config.inputSchema, "input"),
  };
  if (config.title !== undefined) definition.title = config.title;
  if (config.description !== undefined) definition.description = config.description;
  if (config.outputSchema !== undefined) {
    definition.outputSchema = toToolJsonSchema(config.outputSchema, "output");
  }
  if (config.annotations !== undefined) definition.annotations = config.annotations;
  if (config.icons !== undefined) definition.icons = config.icons;
  if (config._meta !== undefined) definition._meta = config._meta;
  const scan = scanParamHeaders(definition.inputSchema);
  if (!scan.ok)
    throw new TypeError(`Invalid inputSchema of tool ${JSON.stringify(name)}: ${scan.reason}`);
  return { name, config, handler, definition, paramHeaders: scan.declarations };
}

/** A tool execution error: a result the model can read, not a protocol error (MCP "Tools"). */
export function toolError(text: string): v2025_11_25.CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/**
 * Runs a tool call: invalid arguments, a thrown error and output that breaks the output schema all
 * become `isError: true` results that say what is wrong (2025-11-25: input validation errors SHOULD
 * be tool execution errors). A thrown `JSONRPCError` is answered as that protocol error instead.
 */
export async function runTool(
  entry: ToolEntry,
  args: unknown,
  context: RequestHandlerContext,
  compile: CompileJsonSchema,
): Promise<v2025_11_25.CallToolResult> {
  const input = await checkSchema(entry.config.inputSchema, args ?? {}, compile);
  if (!input.ok) {
    return toolError(`Invalid arguments for tool ${entry.name}: ${input.problem}`);
  }
  let result: v2025_11_25.CallToolResult;
  try {
    result = (await entry.handler(input.value as never, context)) as v2025_11_25.CallToolResult;
  } catch (error) {
    // A deliberate wire error (for example one a gateway got from a backend) stays a protocol error.
    if (JSONRPCError.isInstance(error)) throw error;
    return toolError(error instanceof Error ? error.message : String(error));
  }
  if (result.isError === true || entry.config.outputSchema === undefined) {
    return { ...result, content: result.content ?? [] };
  }
  if (result.structuredContent === undefined) {
    return toolError(`Tool ${entry.name} has an output schema but returned no structured content`);
  }
  const output = await checkSchema(entry.config.outputSchema, result.structuredContent, compile);
  if (!output.ok) {
    return toolError(`Tool ${entry.name} returned invalid structured content: ${output.problem}`);
  }
  const content = result.content ?? [
    { type: "text" as const, text: JSON.stringify(result.structuredContent) },
  ];
  return { ...result, content };
}
