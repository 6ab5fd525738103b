import { createLegacyCoreMethods } from "../methods/create-legacy-core-methods.js";
import * as base from "./base.js";
import * as completion from "./completion.js";
import * as lifecycle from "./lifecycle.js";
import * as logging from "./logging.js";
import * as notifications from "./notifications.js";
import * as prompts from "./prompts.js";
import * as resources from "./resources.js";
import * as roots from "./roots.js";
import * as sampling from "./sampling.js";
import * as tools from "./tools.js";

/** Descriptor of every request and notification of revision 2024-11-05, keyed by method name. */
export const methods = createLegacyCoreMethods("2024-11-05", {
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
});
