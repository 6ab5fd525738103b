import { z } from "zod";
import type {
  McpNotificationDescriptor,
  McpRequestDescriptor,
  SchemaLike,
} from "../methods/method-descriptor.js";
import type { ValidationIssue } from "./validation-issue.js";

/** Thrown by a shallow schema's `parse`; carries zod-like `issues`. */
export class ShallowValidationError extends Error {
  /** The issues found (top level only). */
  readonly issues: readonly ValidationIssue[];

  /** Creates the error from its issues. */
  constructor(issues: readonly ValidationIssue[]) {
    super(issues.map((issue) => issue.message).join("; "));
    this.name = "ShallowValidationError";
    this.issues = issues;
  }
}

/** A cheap schema: checks only the top level, returns the input itself (no copy). */
export interface ShallowSchema<Output> extends SchemaLike<Output> {
  /** Always true: tells a shallow schema from a zod one. */
  readonly shallow: true;
  /** Issues of `value`, empty when it passes. */
  check(value: unknown): readonly ValidationIssue[];
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/**
 * A shallow version of a zod schema, for a gateway that only forwards a message: it checks that the
 * value is an object (or absent, when the schema is optional) and that the schema's required
 * top-level keys are present, and nothing deeper. Non-object schemas accept anything.
 */
export function createShallowSchema<Schema extends z.ZodType>(
  schema: Schema,
): ShallowSchema<z.output<Schema>> {
  let inner: z.ZodType = schema;
  const optional = schema instanceof z.ZodOptional;
  if (schema instanceof z.ZodOptional) inner = schema.unwrap() as z.ZodType;
  // An object has one set of required keys; a union of objects is satisfied by any branch's set.
  const branches = inner instanceof z.ZodUnion ? (inner.options as z.ZodType[]) : [inner];
  const isObject = branches.every(
    (branch) => branch instanceof z.ZodObject || branch instanceof z.ZodUnion,
  );
  const requiredSets = branches.map((branch) =>
    branch instanceof z.ZodObject
      ? Object.entries(branch.shape as Record<string, z.ZodType>)
          .filter(([, field]) => !field.safeParse(undefined).success)
          .map(([key]) => key)
      : [],
  );
  const check = (value: unknown): readonly ValidationIssue[] => {
    if (value === undefined) {
      return optional || !isObject
        ? []
        : [{ path: [], message: "Expected an object, got undefined" }];
    }
    if (!isObject) return [];
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      return [{ path: [], message: `Expected an object, got ${describe(value)}` }];
    }
    let fewest: readonly ValidationIssue[] | undefined;
    for (const required of requiredSets) {
      const issues: ValidationIssue[] = [];
      for (const key of required) {
        if ((value as Record<string, unknown>)[key] === undefined) {
          issues.push({ path: [key], message: "Required" });
        }
      }
      if (issues.length === 0) return issues;
      if (fewest === undefined || issues.length < fewest.length) fewest = issues;
    }
    return fewest ?? [];
  };
  return {
    shallow: true,
    check,
    parse(value: unknown) {
      const issues = check(value);
      if (issues.length > 0) throw new ShallowValidationError(issues);
      return value as z.output<Schema>;
    },
  };
}

/** A request descriptor whose params and result are shallow schemas (flag `shallow: true`). */
export type ShallowRequestDescriptor<Descriptor extends McpRequestDescriptor> = Omit<
  Descriptor,
  "params" | "result"
> & {
  readonly params: ShallowSchema<z.output<Descriptor["params"]>>;
  readonly result: ShallowSchema<z.output<Descriptor["result"]>>;
  readonly shallow: true;
};

/** A notification descriptor whose params are a shallow schema. */
export type ShallowNotificationDescriptor<Descriptor extends McpNotificationDescriptor> = Omit<
  Descriptor,
  "params"
> & { readonly params: ShallowSchema<z.output<Descriptor["params"]>>; readonly shallow: true };

/**
 * The same descriptor with shallow schemas: a gateway that only forwards a message uses it with
 * jsonrpc-core to skip deep validation (types stay those of the deep schemas).
 */
export function toShallowDescriptor<Descriptor extends McpRequestDescriptor>(
  descriptor: Descriptor,
): ShallowRequestDescriptor<Descriptor>;
export function toShallowDescriptor<Descriptor extends McpNotificationDescriptor>(
  descriptor: Descriptor,
): ShallowNotificationDescriptor<Descriptor>;
export function toShallowDescriptor(
  descriptor: McpRequestDescriptor | McpNotificationDescriptor,
): unknown {
  if (descriptor.kind === "request") {
    return {
      ...descriptor,
      params: createShallowSchema(descriptor.params),
      result: createShallowSchema(descriptor.result),
      shallow: true,
    };
  }
  return { ...descriptor, params: createShallowSchema(descriptor.params), shallow: true };
}
