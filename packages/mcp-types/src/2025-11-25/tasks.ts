import { z } from "zod";
import {
  NotificationParamsSchema,
  PaginatedRequestParamsSchema,
  PaginatedResultSchema,
  RequestParamsSchema,
  ResultSchema,
} from "../2024-11-05/base.js";
import {
  defineNotificationSchema,
  defineRequestSchema,
  type SchemaType,
} from "../shared/define.js";

/* Revision 2025-11-25: experimental tasks (moved to an extension in 2026-07-28). */

/** The status of a task. */
export const TaskStatusSchema = z.enum([
  "working",
  "input_required",
  "completed",
  "failed",
  "cancelled",
]);
/** The status of a task. */
export type TaskStatus = z.infer<typeof TaskStatusSchema>;

const taskSchema = z.looseObject({
  taskId: z.string(),
  status: TaskStatusSchema,
  statusMessage: z.string().optional(),
  createdAt: z.string(),
  lastUpdatedAt: z.string(),
  ttl: z.union([z.number(), z.null()]),
  pollInterval: z.number().optional(),
});
/** The zod type of {@link TaskSchema}, named so that declarations refer to it. */
export interface TaskSchemaType extends SchemaType<typeof taskSchema> {}
/** A pollable task; `ttl` null means unlimited lifetime. */
export const TaskSchema: TaskSchemaType = taskSchema;
/** A pollable task. */
export type Task = z.infer<typeof TaskSchema>;

/** `_meta["io.modelcontextprotocol/related-task"]`: ties a message to a task. */
export const RelatedTaskMetadataSchema = z.looseObject({ taskId: z.string() });
/** Ties a message to a task. */
export type RelatedTaskMetadata = z.infer<typeof RelatedTaskMetadataSchema>;

const createTaskResultSchema = ResultSchema.extend({ task: TaskSchema });
/** The zod type of {@link CreateTaskResultSchema}, named so that declarations refer to it. */
export interface CreateTaskResultSchemaType extends SchemaType<typeof createTaskResultSchema> {}
/** The immediate answer to a task-augmented request. */
export const CreateTaskResultSchema: CreateTaskResultSchemaType = createTaskResultSchema;
/** The immediate answer to a task-augmented request. */
export type CreateTaskResult = z.infer<typeof CreateTaskResultSchema>;

/** Params naming one task. */
export const TaskRequestParamsSchema = RequestParamsSchema.extend({ taskId: z.string() });

/** `tasks/get`. */
export const GetTaskRequestSchema = defineRequestSchema("tasks/get", TaskRequestParamsSchema);
/** `tasks/get`. */
export type GetTaskRequest = z.infer<typeof GetTaskRequestSchema>;

/** Result of `tasks/get`: the task's fields at the top level. */
export const GetTaskResultSchema = ResultSchema.extend(TaskSchema.shape);
/** Result of `tasks/get`. */
export type GetTaskResult = z.infer<typeof GetTaskResultSchema>;

/** `tasks/result`: blocks until the task is terminal. */
export const GetTaskPayloadRequestSchema = defineRequestSchema(
  "tasks/result",
  TaskRequestParamsSchema,
);
/** `tasks/result`. */
export type GetTaskPayloadRequest = z.infer<typeof GetTaskPayloadRequestSchema>;

/** Result of `tasks/result`: exactly the underlying request's result (any result object). */
export const GetTaskPayloadResultSchema = ResultSchema;
/** Result of `tasks/result`. */
export type GetTaskPayloadResult = z.infer<typeof GetTaskPayloadResultSchema>;

/** Params of `tasks/list` (optional). */
export const ListTasksRequestParamsSchema = PaginatedRequestParamsSchema.optional();
/** `tasks/list`. */
export const ListTasksRequestSchema = defineRequestSchema(
  "tasks/list",
  ListTasksRequestParamsSchema,
);
/** `tasks/list`. */
export type ListTasksRequest = z.infer<typeof ListTasksRequestSchema>;

/** Result of `tasks/list`. */
export const ListTasksResultSchema = PaginatedResultSchema.extend({ tasks: z.array(TaskSchema) });
/** Result of `tasks/list`. */
export type ListTasksResult = z.infer<typeof ListTasksResultSchema>;

/** `tasks/cancel`; a terminal task answers -32602. */
export const CancelTaskRequestSchema = defineRequestSchema("tasks/cancel", TaskRequestParamsSchema);
/** `tasks/cancel`. */
export type CancelTaskRequest = z.infer<typeof CancelTaskRequestSchema>;

/** Result of `tasks/cancel`: the task's fields. */
export const CancelTaskResultSchema = ResultSchema.extend(TaskSchema.shape);
/** Result of `tasks/cancel`. */
export type CancelTaskResult = z.infer<typeof CancelTaskResultSchema>;

const taskStatusNotificationParamsSchema = NotificationParamsSchema.extend(TaskSchema.shape);
/** The zod type of {@link TaskStatusNotificationParamsSchema}, named so that declarations refer to it. */
export interface TaskStatusNotificationParamsSchemaType
  extends SchemaType<typeof taskStatusNotificationParamsSchema> {}
/** Params of `notifications/tasks/status`: the task's fields. */
export const TaskStatusNotificationParamsSchema: TaskStatusNotificationParamsSchemaType =
  taskStatusNotificationParamsSchema;

const taskStatusNotificationSchema = defineNotificationSchema(
  "notifications/tasks/status",
  TaskStatusNotificationParamsSchema,
);
/** The zod type of {@link TaskStatusNotificationSchema}, named so that declarations refer to it. */
export interface TaskStatusNotificationSchemaType
  extends SchemaType<typeof taskStatusNotificationSchema> {}
/** `notifications/tasks/status`. */
export const TaskStatusNotificationSchema: TaskStatusNotificationSchemaType =
  taskStatusNotificationSchema;
/** `notifications/tasks/status`. */
export type TaskStatusNotification = z.infer<typeof TaskStatusNotificationSchema>;

/**
 * The result of a request that may be task-augmented (`tools/call`, `sampling/createMessage`,
 * `elicitation/create`): the method's own result, or `CreateTaskResult` when the request carried
 * `params.task`.
 */
export function orCreateTask<Complete extends z.ZodType>(complete: Complete) {
  return z.union([complete, CreateTaskResultSchema]);
}

/** Whether a result is a `CreateTaskResult` (the answer to a task-augmented request). */
export function isCreateTaskResult(result: unknown): result is CreateTaskResult {
  return (
    typeof result === "object" &&
    result !== null &&
    typeof (result as { task?: unknown }).task === "object" &&
    (result as { task?: unknown }).task !== null &&
    !("content" in result)
  );
}
