import { createMethods } from "../methods/create-methods.js";
import { LEGACY_CORE_METHOD_SCHEMAS } from "../methods/legacy-core-method-schemas.js";
import * as schemas from "./schemas.js";

/** The methods of revision 2024-11-05 and the names of their schemas. */
export const METHOD_SCHEMAS = LEGACY_CORE_METHOD_SCHEMAS;

/** Descriptor of every request and notification of revision 2024-11-05, keyed by method name. */
export const methods = createMethods("2024-11-05", METHOD_SCHEMAS, schemas);
