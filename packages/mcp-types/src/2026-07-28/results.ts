import type { z } from "zod";
import { orInputRequired } from "./input-required.js";
import { GetPromptResultSchema } from "./prompts.js";
import { ReadResourceResultSchema } from "./resources.js";
import { CallToolResultSchema } from "./tools.js";

/* Revision 2026-07-28: the requests that may answer `input_required` (MRTR). */

/** Result of `tools/call`: complete, or input required. */
export const CallToolResultOrInputRequiredSchema = orInputRequired(CallToolResultSchema);
/** Result of `tools/call` (possibly input required). */
export type CallToolResultOrInputRequired = z.infer<typeof CallToolResultOrInputRequiredSchema>;

/** Result of `prompts/get`: complete, or input required. */
export const GetPromptResultOrInputRequiredSchema = orInputRequired(GetPromptResultSchema);
/** Result of `prompts/get` (possibly input required). */
export type GetPromptResultOrInputRequired = z.infer<typeof GetPromptResultOrInputRequiredSchema>;

/** Result of `resources/read`: complete, or input required. */
export const ReadResourceResultOrInputRequiredSchema = orInputRequired(ReadResourceResultSchema);
/** Result of `resources/read` (possibly input required). */
export type ReadResourceResultOrInputRequired = z.infer<
  typeof ReadResourceResultOrInputRequiredSchema
>;
