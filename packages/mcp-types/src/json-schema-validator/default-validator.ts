import { type AjvLike, createAjvValidator } from "./ajv-validator.js";
import type { JsonSchemaValidator } from "./json-schema-validator.js";

/** What the default validator reports when ajv cannot be loaded. */
export const NO_VALIDATOR_PROBLEM =
  "no JSON Schema validator: install ajv, or pass one with the jsonSchemaValidator option (createCfWorkerValidator on edge runtimes)";

// A specifier in a variable, so that bundlers leave this optional import alone: a browser or edge
// bundle does not need ajv unless the application imports it itself.
const AJV_2020 = "ajv/dist/2020.js";

let loading: Promise<JsonSchemaValidator> | undefined;

/**
 * The validator used when none is given: ajv (draft 2020-12, the MCP default since 2025-11-25),
 * loaded on first use from the optional peer dependency `ajv`. When ajv is not installed, every
 * check fails and says so rather than accepting unchecked input.
 */
export function loadDefaultJsonSchemaValidator(): Promise<JsonSchemaValidator> {
  loading ??= import(/* @vite-ignore */ AJV_2020).then(
    (module: { default: { default?: AjvConstructor } & AjvConstructor }) => {
      const Ajv2020 = module.default.default ?? module.default;
      return createAjvValidator(
        new Ajv2020({ strict: false, allErrors: true, validateFormats: false }),
      );
    },
    () => ({ compile: () => () => ({ valid: false, problem: NO_VALIDATOR_PROBLEM }) }),
  );
  return loading;
}

type AjvConstructor = new (options: {
  strict: boolean;
  allErrors: boolean;
  validateFormats: boolean;
}) => AjvLike;
