import type { ValidationIssue } from "./validation-issue.js";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isRequestId(value: unknown): boolean {
  return typeof value === "string" || (typeof value === "number" && Number.isInteger(value));
}

/**
 * Checks the JSON-RPC 2.0 envelope of one message by hand (it runs for every message, so it must be
 * cheap): `jsonrpc`, `id`, `method`, `params`, `result`, `error`. Returns the issues, empty when the
 * envelope is valid. Which kind of message it is follows from its keys.
 */
export function checkEnvelope(message: unknown): ValidationIssue[] {
  if (!isRecord(message)) {
    return [{ path: [], message: "Expected a JSON-RPC message object" }];
  }
  const issues: ValidationIssue[] = [];
  if (message.jsonrpc !== "2.0") issues.push({ path: ["jsonrpc"], message: 'Expected "2.0"' });
  if ("method" in message) {
    if (typeof message.method !== "string") {
      issues.push({ path: ["method"], message: "Expected a string" });
    }
    if ("id" in message && !isRequestId(message.id)) {
      issues.push({ path: ["id"], message: "Expected a string or an integer (never null)" });
    }
    if (message.params !== undefined && !isRecord(message.params)) {
      issues.push({ path: ["params"], message: "Expected an object" });
    }
    return issues;
  }
  if ("error" in message) {
    if (message.id !== undefined && message.id !== null && !isRequestId(message.id)) {
      issues.push({ path: ["id"], message: "Expected a string, an integer or null" });
    }
    const error = message.error;
    if (!isRecord(error)) {
      issues.push({ path: ["error"], message: "Expected an object" });
      return issues;
    }
    if (typeof error.code !== "number" || !Number.isInteger(error.code)) {
      issues.push({ path: ["error", "code"], message: "Expected an integer" });
    }
    if (typeof error.message !== "string") {
      issues.push({ path: ["error", "message"], message: "Expected a string" });
    }
    return issues;
  }
  if ("result" in message) {
    if (!isRequestId(message.id)) {
      issues.push({ path: ["id"], message: "Expected a string or an integer" });
    }
    if (!isRecord(message.result)) issues.push({ path: ["result"], message: "Expected an object" });
    return issues;
  }
  issues.push({ path: [], message: "Expected a request, notification, result or error" });
  return issues;
}
