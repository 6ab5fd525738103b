import { LocalError } from "@patchbay/jsonrpc-core";

const marker = Symbol.for("@patchbay/client/InvalidToolOutputError");

/**
 * A tool with an `outputSchema` returned no `structuredContent`, or content that breaks the schema
 * (MCP 2025-06-18 "Output Schema": clients SHOULD validate) (`code: "INVALID_TOOL_OUTPUT"`).
 */
export class InvalidToolOutputError extends LocalError {
  /** The tool whose result was refused. */
  readonly tool: string;

  /** Creates the error for `tool`, saying what is wrong. */
  constructor(tool: string, problem: string) {
    super("INVALID_TOOL_OUTPUT", `Tool ${tool} returned invalid structured content: ${problem}`);
    this.name = "InvalidToolOutputError";
    this.tool = tool;
    Object.defineProperty(this, marker, { value: true });
  }

  /** True for an InvalidToolOutputError from any installed copy of this package. */
  static override isInstance(value: unknown): value is InvalidToolOutputError {
    return typeof value === "object" && value !== null && marker in value;
  }
}
