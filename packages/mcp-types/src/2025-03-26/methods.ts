import { createMethods } from "../methods/create-methods.js";
import { LEGACY_CORE_METHOD_SCHEMAS } from "../methods/legacy-core-method-schemas.js";
import * as schemas from "./schemas.js";

/** The methods of revision 2025-03-26 and the names of their schemas. */
export const METHOD_SCHEMAS = LEGACY_CORE_METHOD_SCHEMAS;

/** Descriptor of every request and notification of revision 2025-03-26, keyed by method name. */
export const methods = createMethods("2025-03-26", METHOD_SCHEMAS, schemas);
