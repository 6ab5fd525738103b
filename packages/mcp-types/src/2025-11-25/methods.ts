import { createLegacyCoreMethods } from "../methods/create-legacy-core-methods.js";
import {
  defineNotificationDescriptor,
  defineRequestDescriptor,
} from "../methods/method-descriptor.js";
import * as base from "./base.js";
import * as completion from "./completion.js";
import * as elicitation from "./elicitation.js";
import * as lifecycle from "./lifecycle.js";
import * as logging from "./logging.js";
import * as notifications from "./notifications.js";
import * as prompts from "./prompts.js";
import * as resources from "./resources.js";
import * as roots from "./roots.js";
import * as sampling from "./sampling.js";
import * as tasks from "./tasks.js";
import * as tools from "./tools.js";

const REVISION = "2025-11-25";

/**
 * Descriptor of every request and notification of revision 2025-11-25, keyed by method name.
 * `tools/call`, `sampling/createMessage` and `elicitation/create` results are the method's result or
 * a `CreateTaskResult` (when the request was task-augmented); narrow with `isCreateTaskResult`.
 */
export const methods = {
  ...createLegacyCoreMethods(REVISION, {
    ...base,
    ...completion,
    ...lifecycle,
    ...logging,
    ...notifications,
    ...prompts,
    ...resources,
    ...roots,
    ...sampling,
    ...tools,
    // A task-augmented request (params.task) is answered with a CreateTaskResult instead.
    CallToolResultSchema: tasks.orCreateTask(tools.CallToolResultSchema),
    CreateMessageResultSchema: tasks.orCreateTask(sampling.CreateMessageResultSchema),
  }),
  "elicitation/create": defineRequestDescriptor(
    REVISION,
    "elicitation/create",
    elicitation.ElicitRequestParamsSchema,
    tasks.orCreateTask(elicitation.ElicitResultSchema),
  ),
  "notifications/elicitation/complete": defineNotificationDescriptor(
    REVISION,
    "notifications/elicitation/complete",
    elicitation.ElicitationCompleteNotificationParamsSchema,
  ),
  "tasks/get": defineRequestDescriptor(
    REVISION,
    "tasks/get",
    tasks.TaskRequestParamsSchema,
    tasks.GetTaskResultSchema,
  ),
  "tasks/result": defineRequestDescriptor(
    REVISION,
    "tasks/result",
    tasks.TaskRequestParamsSchema,
    tasks.GetTaskPayloadResultSchema,
  ),
  "tasks/list": defineRequestDescriptor(
    REVISION,
    "tasks/list",
    tasks.ListTasksRequestParamsSchema,
    tasks.ListTasksResultSchema,
  ),
  "tasks/cancel": defineRequestDescriptor(
    REVISION,
    "tasks/cancel",
    tasks.TaskRequestParamsSchema,
    tasks.CancelTaskResultSchema,
  ),
  "notifications/tasks/status": defineNotificationDescriptor(
    REVISION,
    "notifications/tasks/status",
    tasks.TaskStatusNotificationParamsSchema,
  ),
} as const;
