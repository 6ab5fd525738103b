import { createMethods } from "../methods/create-methods.js";
import { LEGACY_CORE_METHOD_SCHEMAS } from "../methods/legacy-core-method-schemas.js";
import * as schemas from "./schemas.js";

/**
 * The methods of revision 2025-11-25 and the names of their schemas: tasks and the elicitation
 * complete notification are new, and a task-augmented `tools/call`, `sampling/createMessage` or
 * `elicitation/create` may be answered with a `CreateTaskResult` (narrow with `isCreateTaskResult`).
 */
export const METHOD_SCHEMAS = {
  ...LEGACY_CORE_METHOD_SCHEMAS,
  "tools/call": { params: "CallToolRequestParamsSchema", result: "CallToolResultOrTaskSchema" },
  "sampling/createMessage": {
    params: "CreateMessageRequestParamsSchema",
    result: "CreateMessageResultOrTaskSchema",
  },
  "elicitation/create": { params: "ElicitRequestParamsSchema", result: "ElicitResultOrTaskSchema" },
  "notifications/elicitation/complete": { params: "ElicitationCompleteNotificationParamsSchema" },
  "tasks/get": { params: "TaskRequestParamsSchema", result: "GetTaskResultSchema" },
  "tasks/result": { params: "TaskRequestParamsSchema", result: "GetTaskPayloadResultSchema" },
  "tasks/list": { params: "ListTasksRequestParamsSchema", result: "ListTasksResultSchema" },
  "tasks/cancel": { params: "TaskRequestParamsSchema", result: "CancelTaskResultSchema" },
  "notifications/tasks/status": { params: "TaskStatusNotificationParamsSchema" },
} as const;

/** Descriptor of every request and notification of revision 2025-11-25, keyed by method name. */
export const methods = createMethods("2025-11-25", METHOD_SCHEMAS, schemas);
