import type { z } from "zod";
import { normalizeMessage } from "../leniency/normalize-message.js";
import type { McpMethodDescriptor } from "../methods/method-descriptor.js";
import { getMethodDescriptor } from "../methods/revision-methods.js";
import type { JSONRPCMessage } from "../shared/json-rpc.js";
import type { RequestId } from "../shared/primitives.js";
import type { ProtocolVersion } from "../versions.js";
import { checkEnvelope } from "./check-envelope.js";
import { flattenIssues } from "./flatten-issues.js";
import { createShallowSchema } from "./shallow-schema.js";
import { invalid, type ValidationIssue, type ValidationResult } from "./validation-issue.js";

/** Options of `validateMessage`. */
export interface ValidateMessageOptions {
  /**
   * The method of the request a result response answers (a string, or a lookup by response id).
   * Without it a result is checked as a JSON-RPC envelope only.
   */
  readonly requestMethod?: string | ((id: RequestId) => string | undefined);
  /** Accept methods the revision does not define (checked as envelopes only). Default false. */
  readonly allowUnknownMethods?: boolean;
  /** Accept a batch (array). Default: only in 2025-03-26, the one revision that allows batches. */
  readonly allowBatch?: boolean;
  /** `"shallow"` checks envelopes and top-level required keys only (cheap). Default `"deep"`. */
  readonly depth?: "deep" | "shallow";
  /** Rename aliased methods (bare `initialized`) before validating. Default true. */
  readonly normalize?: boolean;
}

const shallowCache = new WeakMap<z.ZodType, ReturnType<typeof createShallowSchema>>();

function runSchema(
  schema: z.ZodType,
  value: unknown,
  prefix: readonly PropertyKey[],
  depth: "deep" | "shallow",
): { value: unknown; issues: readonly ValidationIssue[] } {
  if (depth === "shallow") {
    let shallow = shallowCache.get(schema);
    if (shallow === undefined) {
      shallow = createShallowSchema(schema);
      shallowCache.set(schema, shallow);
    }
    const issues = shallow.check(value);
    return {
      value,
      issues: issues.map((issue) => ({ ...issue, path: [...prefix, ...issue.path] })),
    };
  }
  const result = schema.safeParse(value);
  if (result.success) return { value: result.data, issues: [] };
  return { value, issues: flattenIssues(result.error.issues, prefix) };
}

function validateOne(
  revision: ProtocolVersion,
  input: unknown,
  options: ValidateMessageOptions,
  prefix: readonly PropertyKey[],
): { value: unknown; issues: readonly ValidationIssue[] } {
  const depth = options.depth ?? "deep";
  const message = options.normalize === false ? input : normalizeMessage(input);
  const envelopeIssues = checkEnvelope(message);
  if (envelopeIssues.length > 0) {
    return {
      value: message,
      issues: envelopeIssues.map((issue) => ({ ...issue, path: [...prefix, ...issue.path] })),
    };
  }
  const parsed = message as Record<string, unknown>;
  if (typeof parsed.method === "string") {
    const descriptor = getMethodDescriptor(revision, parsed.method);
    const isRequest = "id" in parsed;
    if (descriptor === undefined || (descriptor.kind === "request") !== isRequest) {
      if (descriptor === undefined && options.allowUnknownMethods === true) {
        return { value: message, issues: [] };
      }
      const what = isRequest ? "request" : "notification";
      return {
        value: message,
        issues: [
          {
            path: [...prefix, "method"],
            message: `"${parsed.method}" is not a ${what} of revision ${revision}`,
          },
        ],
      };
    }
    const params = runSchema(descriptor.params, parsed.params, [...prefix, "params"], depth);
    if (params.issues.length > 0) return params;
    // Shallow checks return the input itself: the message goes on unchanged and uncopied.
    const unchanged = depth === "shallow" || params.value === undefined;
    return { value: unchanged ? message : { ...parsed, params: params.value }, issues: [] };
  }
  if ("result" in parsed) {
    const lookup = options.requestMethod;
    const method =
      typeof lookup === "function" ? lookup(parsed.id as RequestId) : (lookup ?? undefined);
    const descriptor: McpMethodDescriptor | undefined =
      method === undefined ? undefined : getMethodDescriptor(revision, method);
    if (descriptor === undefined || descriptor.kind !== "request") {
      if (method === undefined || options.allowUnknownMethods === true) {
        return { value: message, issues: [] };
      }
      return {
        value: message,
        issues: [
          { path: [...prefix], message: `"${method}" is not a request of revision ${revision}` },
        ],
      };
    }
    const result = runSchema(descriptor.result, parsed.result, [...prefix, "result"], depth);
    if (result.issues.length > 0) return result;
    return {
      value: depth === "shallow" ? message : { ...parsed, result: result.value },
      issues: [],
    };
  }
  return { value: message, issues: [] };
}

/**
 * Validates a JSON-RPC message (or batch) against one revision: the envelope, the method's params
 * (requests and notifications) and, when `requestMethod` says what a response answers, its result.
 * Unknown fields pass through; issue paths start at the message root (`params.arguments`, ...).
 */
export function validateMessage(
  revision: ProtocolVersion,
  message: unknown,
  options: ValidateMessageOptions = {},
): ValidationResult<JSONRPCMessage | JSONRPCMessage[]> {
  if (Array.isArray(message)) {
    const allowBatch = options.allowBatch ?? revision === "2025-03-26";
    if (!allowBatch) {
      return invalid([{ path: [], message: `Batches are not allowed in revision ${revision}` }]);
    }
    if (message.length === 0) return invalid([{ path: [], message: "A batch must not be empty" }]);
    const values: JSONRPCMessage[] = [];
    const issues: ValidationIssue[] = [];
    message.forEach((element, index) => {
      if (
        typeof element === "object" &&
        element !== null &&
        (element as { method?: unknown }).method === "initialize"
      ) {
        issues.push({ path: [index, "method"], message: "initialize MUST NOT be part of a batch" });
        return;
      }
      const one = validateOne(revision, element, options, [index]);
      issues.push(...one.issues);
      values.push(one.value as JSONRPCMessage);
    });
    return issues.length > 0 ? invalid(issues) : { success: true, data: values };
  }
  const one = validateOne(revision, message, options, []);
  return one.issues.length > 0
    ? invalid(one.issues)
    : { success: true, data: one.value as JSONRPCMessage };
}
