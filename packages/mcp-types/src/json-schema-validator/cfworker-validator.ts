import type { JSONObject } from "../shared/primitives.js";
import { type JsonSchemaValidator, joinProblems } from "./json-schema-validator.js";

/** The JSON Schema drafts `@cfworker/json-schema` knows. */
export type CfWorkerSchemaDraft = "4" | "7" | "2019-09" | "2020-12";

/** The `Validator` class of `@cfworker/json-schema` (v4), as this adapter uses it. */
export type CfWorkerValidatorClass = new (
  schema: object,
  draft?: CfWorkerSchemaDraft,
  shortCircuit?: boolean,
) => {
  validate(value: unknown): {
    valid: boolean;
    errors: readonly { instanceLocation: string; keywordLocation: string; error: string }[];
  };
};

/**
 * A validator backed by `@cfworker/json-schema`, which needs no code generation (`new Function`)
 * and so runs on Cloudflare Workers and other edge runtimes. Pass its `Validator` class:
 * `createCfWorkerValidator(Validator)`. Schemas are read as draft 2020-12 unless told otherwise.
 */
export function createCfWorkerValidator(
  Validator: CfWorkerValidatorClass,
  draft: CfWorkerSchemaDraft = "2020-12",
): JsonSchemaValidator {
  return {
    compile(schema: JSONObject) {
      const validator = new Validator(schema, draft, false);
      return (value) => {
        const result = validator.validate(value);
        if (result.valid) return { valid: true };
        // The deepest errors say what is wrong; those above them only say that a child failed.
        const deepestFirst = [...result.errors].sort(
          (a, b) => b.instanceLocation.length - a.instanceLocation.length,
        );
        const problems = deepestFirst.map(
          (error) => `${error.instanceLocation.replace(/^#/, "") || "(root)"}: ${error.error}`,
        );
        return { valid: false, problem: joinProblems(problems) };
      };
    },
  };
}
