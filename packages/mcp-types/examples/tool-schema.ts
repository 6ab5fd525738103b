// The README example, compiled by `pnpm typecheck` (the import path is the only difference).
import { z } from "zod";
import { type ToolJSONSchema, toToolInputSchema, validateToolName } from "../src/index.js";

/** Declares a tool's input with zod and checks its (namespaced) name. */
export function main(): {
  inputSchema: ToolJSONSchema;
  noArguments: ToolJSONSchema;
  nameProblem: string;
} {
  const inputSchema = toToolInputSchema(
    z.object({ title: z.string().describe("Issue title"), body: z.string().optional() }),
  );
  const noArguments = toToolInputSchema();
  const check = validateToolName("github:create_issue");
  return { inputSchema, noArguments, nameProblem: check.valid ? "" : check.message };
}
