import type { z } from "zod";
import type { SchemaType } from "../shared/define.js";
import { orInputRequired } from "./input-required.js";
import { GetPromptResultSchema } from "./prompts.js";
import { ReadResourceResultSchema } from "./resources.js";
import { CallToolResultSchema } from "./tools.js";

/* Revision 2026-07-28: the requests that may answer `input_required` (MRTR). */

const callToolResultOrInputRequiredSchema = orInputRequired(CallToolResultSchema);
/** The zod type of {@link CallToolResultOrInputRequiredSchema}, named so that declarations refer to it. */
export interface CallToolResultOrInputRequiredSchemaType
  extends SchemaType<typeof callToolResultOrInputRequiredSchema> {}
/** Result of `tools/call`: complete, or input required. */
export const CallToolResultOrInputRequiredSchema: CallToolResultOrInputRequiredSchemaType =
  callToolResultOrInputRequiredSchema;
/** Result of `tools/call` (possibly input required). */
export type CallToolResultOrInputRequired = z.infer<typeof CallToolResultOrInputRequiredSchema>;

const getPromptResultOrInputRequiredSchema = orInputRequired(GetPromptResultSchema);
/** The zod type of {@link GetPromptResultOrInputRequiredSchema}, named so that declarations refer to it. */
export interface GetPromptResultOrInputRequiredSchemaType
  extends SchemaType<typeof getPromptResultOrInputRequiredSchema> {}
/** Result of `prompts/get`: complete, or input required. */
export const GetPromptResultOrInputRequiredSchema: GetPromptResultOrInputRequiredSchemaType =
  getPromptResultOrInputRequiredSchema;
/** Result of `prompts/get` (possibly input required). */
export type GetPromptResultOrInputRequired = z.infer<typeof GetPromptResultOrInputRequiredSchema>;

const readResourceResultOrInputRequiredSchema = orInputRequired(ReadResourceResultSchema);
/** The zod type of {@link ReadResourceResultOrInputRequiredSchema}, named so that declarations refer to it. */
export interface ReadResourceResultOrInputRequiredSchemaType
  extends SchemaType<typeof readResourceResultOrInputRequiredSchema> {}
/** Result of `resources/read`: complete, or input required. */
export const ReadResourceResultOrInputRequiredSchema: ReadResourceResultOrInputRequiredSchemaType =
  readResourceResultOrInputRequiredSchema;
/** Result of `resources/read` (possibly input required). */
export type ReadResourceResultOrInputRequired = z.infer<
  typeof ReadResourceResultOrInputRequiredSchema
>;
