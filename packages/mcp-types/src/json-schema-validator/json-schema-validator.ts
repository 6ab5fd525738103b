import type { JSONObject } from "../shared/primitives.js";

/** The outcome of checking a value against a JSON Schema. */
export type JsonSchemaCheck =
  | { readonly valid: true }
  | { readonly valid: false; readonly problem: string };

/** A compiled JSON Schema: checks one value. */
export type JsonSchemaCheckFunction = (value: unknown) => JsonSchemaCheck;

/**
 * Checks values against plain JSON Schemas (tool inputs and outputs, elicitation answers).
 * `compile` is called once per schema; a schema that cannot be compiled throws.
 */
export interface JsonSchemaValidator {
  compile(schema: JSONObject): JsonSchemaCheckFunction;
}

/** Most problems one failed check lists; the rest are counted. */
export const MAX_LISTED_PROBLEMS = 5;

/** Joins `path: message` problems into one line, listing at most `MAX_LISTED_PROBLEMS`. */
export function joinProblems(problems: readonly string[]): string {
  const listed = problems.slice(0, MAX_LISTED_PROBLEMS).join("; ");
  const more = problems.length - MAX_LISTED_PROBLEMS;
  return more > 0 ? `${listed}; and ${more} more` : listed;
}

/**
 * Compiles each schema once (by object identity) and turns a schema that cannot be compiled into
 * a check that always fails with the compiler's message, so one bad schema never throws at a caller.
 */
export function createSchemaCache(
  validator: JsonSchemaValidator,
): (schema: JSONObject) => JsonSchemaCheckFunction {
  const compiled = new WeakMap<JSONObject, JsonSchemaCheckFunction>();
  return (schema) => {
    let check = compiled.get(schema);
    if (check === undefined) {
      try {
        check = validator.compile(schema);
      } catch (error) {
        const problem = `the schema cannot be compiled: ${error instanceof Error ? error.message : String(error)}`;
        check = () => ({ valid: false, problem });
      }
      compiled.set(schema, check);
    }
    return check;
  };
}
