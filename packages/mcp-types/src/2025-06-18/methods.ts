import { createLegacyCoreMethods } from "../methods/create-legacy-core-methods.js";
import { defineRequestDescriptor } from "../methods/method-descriptor.js";
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
import * as tools from "./tools.js";

const REVISION = "2025-06-18";

/** Descriptor of every request and notification of revision 2025-06-18, keyed by method name. */
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
  }),
  "elicitation/create": defineRequestDescriptor(
    REVISION,
    "elicitation/create",
    elicitation.ElicitRequestParamsSchema,
    elicitation.ElicitResultSchema,
  ),
} as const;
