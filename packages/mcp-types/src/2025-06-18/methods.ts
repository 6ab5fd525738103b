import { createMethods } from "../methods/create-methods.js";
import { LEGACY_CORE_METHOD_SCHEMAS } from "../methods/legacy-core-method-schemas.js";
import * as schemas from "./schemas.js";

/** The methods of revision 2025-06-18 and the names of their schemas: elicitation is new. */
export const METHOD_SCHEMAS = {
  ...LEGACY_CORE_METHOD_SCHEMAS,
  "elicitation/create": { params: "ElicitRequestParamsSchema", result: "ElicitResultSchema" },
} as const;

/** Descriptor of every request and notification of revision 2025-06-18, keyed by method name. */
export const methods = createMethods("2025-06-18", METHOD_SCHEMAS, schemas);
