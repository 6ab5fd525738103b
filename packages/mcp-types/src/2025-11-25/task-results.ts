import type { z } from "zod";
import { ElicitResultSchema } from "./elicitation.js";
import { CreateMessageResultSchema } from "./sampling.js";
import { orCreateTask } from "./tasks.js";
import { CallToolResultSchema } from "./tools.js";

/* Revision 2025-11-25: what a task-augmentable request may be answered with. */

/** Result of `tools/call`: a CallToolResult, or a CreateTaskResult for a task-augmented call. */
export const CallToolResultOrTaskSchema = orCreateTask(CallToolResultSchema);
/** Result of `tools/call` (possibly a task). */
export type CallToolResultOrTask = z.infer<typeof CallToolResultOrTaskSchema>;

/** Result of `sampling/createMessage`, or a CreateTaskResult. */
export const CreateMessageResultOrTaskSchema = orCreateTask(CreateMessageResultSchema);
/** Result of `sampling/createMessage` (possibly a task). */
export type CreateMessageResultOrTask = z.infer<typeof CreateMessageResultOrTaskSchema>;

/** Result of `elicitation/create`, or a CreateTaskResult. */
export const ElicitResultOrTaskSchema = orCreateTask(ElicitResultSchema);
/** Result of `elicitation/create` (possibly a task). */
export type ElicitResultOrTask = z.infer<typeof ElicitResultOrTaskSchema>;
