import type { z } from "zod";
import type { SchemaType } from "../shared/define.js";
import { ElicitResultSchema } from "./elicitation.js";
import { CreateMessageResultSchema } from "./sampling.js";
import { orCreateTask } from "./tasks.js";
import { CallToolResultSchema } from "./tools.js";

/* Revision 2025-11-25: what a task-augmentable request may be answered with. */

const callToolResultOrTaskSchema = orCreateTask(CallToolResultSchema);
/** The zod type of {@link CallToolResultOrTaskSchema}, named so that declarations refer to it. */
export interface CallToolResultOrTaskSchemaType
  extends SchemaType<typeof callToolResultOrTaskSchema> {}
/** Result of `tools/call`: a CallToolResult, or a CreateTaskResult for a task-augmented call. */
export const CallToolResultOrTaskSchema: CallToolResultOrTaskSchemaType =
  callToolResultOrTaskSchema;
/** Result of `tools/call` (possibly a task). */
export type CallToolResultOrTask = z.infer<typeof CallToolResultOrTaskSchema>;

const createMessageResultOrTaskSchema = orCreateTask(CreateMessageResultSchema);
/** The zod type of {@link CreateMessageResultOrTaskSchema}, named so that declarations refer to it. */
export interface CreateMessageResultOrTaskSchemaType
  extends SchemaType<typeof createMessageResultOrTaskSchema> {}
/** Result of `sampling/createMessage`, or a CreateTaskResult. */
export const CreateMessageResultOrTaskSchema: CreateMessageResultOrTaskSchemaType =
  createMessageResultOrTaskSchema;
/** Result of `sampling/createMessage` (possibly a task). */
export type CreateMessageResultOrTask = z.infer<typeof CreateMessageResultOrTaskSchema>;

/** Result of `elicitation/create`, or a CreateTaskResult. */
export const ElicitResultOrTaskSchema = orCreateTask(ElicitResultSchema);
/** Result of `elicitation/create` (possibly a task). */
export type ElicitResultOrTask = z.infer<typeof ElicitResultOrTaskSchema>;
