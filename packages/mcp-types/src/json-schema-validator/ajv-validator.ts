import type { JSONObject } from "../shared/primitives.js";
import { type JsonSchemaValidator, joinProblems } from "./json-schema-validator.js";

/** The part of an `ajv` instance this adapter uses (ajv 8; `Ajv2020` for draft 2020-12). */
export interface AjvLike {
  compile(schema: object): AjvValidateFunction;
}

/** A function compiled by ajv. */
export type AjvValidateFunction = ((value: unknown) => boolean) & {
  errors?: readonly { instancePath: string; message?: string }[] | null;
};

/**
 * A validator backed by ajv, the default on Node. Pass an instance you configured, for example
 * `createAjvValidator(new Ajv2020({ strict: false }))` with `import { Ajv2020 } from "ajv/dist/2020.js"`.
 */
export function createAjvValidator(ajv: AjvLike): JsonSchemaValidator {
  return {
    compile(schema: JSONObject) {
      const validate = ajv.compile(schema);
      return (value) => {
        if (validate(value)) return { valid: true };
        const problems = (validate.errors ?? []).map(
          (error) =>
            `${error.instancePath === "" ? "(root)" : error.instancePath}: ${error.message ?? "invalid"}`,
        );
        return { valid: false, problem: joinProblems(problems) };
      };
    },
  };
}
