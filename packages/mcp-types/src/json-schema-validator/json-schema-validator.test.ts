import { Validator } from "@cfworker/json-schema";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { createAjvValidator } from "./ajv-validator.js";
import { createCfWorkerValidator } from "./cfworker-validator.js";
import { loadDefaultJsonSchemaValidator } from "./default-validator.js";
import { createSchemaCache, joinProblems, MAX_LISTED_PROBLEMS } from "./json-schema-validator.js";

const schema = {
  type: "object",
  properties: { n: { type: "number" }, s: { type: "string" } },
  required: ["n"],
};

describe.each([
  ["ajv", createAjvValidator(new Ajv2020({ allErrors: true }))],
  ["@cfworker/json-schema", createCfWorkerValidator(Validator)],
])("the %s adapter", (_name, validator) => {
  it("accepts a value that matches", () => {
    expect(validator.compile(schema)({ n: 1, s: "x" })).toEqual({ valid: true });
  });

  it("names the path of a value that does not", () => {
    const check = validator.compile(schema)({ n: "one" });
    expect(check.valid).toBe(false);
    expect(check.valid === false && check.problem.startsWith("/n: ")).toBe(true);
  });
});

describe("the default validator", () => {
  it("is ajv with draft 2020-12", async () => {
    const validator = await loadDefaultJsonSchemaValidator();
    const prefixItems = { type: "array", prefixItems: [{ type: "number" }] };
    expect(validator.compile(prefixItems)(["x"])).toEqual({
      valid: false,
      problem: "/0: must be number",
    });
  });
});

describe("joinProblems", () => {
  it(`lists at most ${MAX_LISTED_PROBLEMS} problems and counts the rest`, () => {
    const problems = Array.from({ length: MAX_LISTED_PROBLEMS + 2 }, (_, index) => `p${index}`);
    expect(joinProblems(problems)).toBe("p0; p1; p2; p3; p4; and 2 more");
  });
});

describe("createSchemaCache", () => {
  it("compiles each schema once", () => {
    let compiled = 0;
    const cache = createSchemaCache({
      compile: () => {
        compiled += 1;
        return () => ({ valid: true });
      },
    });
    cache(schema);
    cache(schema);
    expect(compiled).toBe(1);
  });

  it("turns a schema that cannot be compiled into a failing check", () => {
    const cache = createSchemaCache(createAjvValidator(new Ajv2020()));
    expect(cache({ type: "no-such-type" })({})).toEqual({
      valid: false,
      problem: expect.stringMatching(/^the schema cannot be compiled: /),
    });
  });
});
