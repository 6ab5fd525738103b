import { JSONRPCError } from "@patchbay/jsonrpc-core";
import { INVALID_PARAMS } from "../errors/map-error.js";
import { ANSWER_SCHEMAS } from "../tasks/task-inputs.js";
import type { HeldCall } from "./held-call.js";

/**
 * Hands a retry's `inputResponses` to the backend requests they answer: every answer for an open
 * question is checked first (a malformed one is -32602 and nothing is answered, so the client can
 * retry), then each question is answered. Keys that name no open question are ignored (MCP
 * 2026-07-28: extra input responses are not an error); questions left unanswered stay open.
 */
export function applyInputResponses(held: HeldCall, responses: unknown): void {
  if (responses === undefined) return;
  if (typeof responses !== "object" || responses === null || Array.isArray(responses)) {
    throw new JSONRPCError(
      INVALID_PARAMS,
      "inputResponses must be an object keyed by input request",
    );
  }
  const answers = responses as Record<string, unknown>;
  const ready: [string, unknown][] = [];
  for (const [key, input] of held.pending) {
    if (!Object.hasOwn(answers, key)) continue;
    const answer = answers[key];
    if (ANSWER_SCHEMAS[input.method]?.safeParse(answer).success !== true) {
      throw new JSONRPCError(
        INVALID_PARAMS,
        `inputResponses["${key}"] is not a valid ${input.method} result`,
      );
    }
    ready.push([key, answer]);
  }
  for (const [key, answer] of ready) {
    const input = held.pending.get(key);
    held.pending.delete(key);
    input?.resolve(answer);
  }
}

/**
 * Answers a backend question from the `inputResponses` the client sent with the call's first
 * request, before it was asked anything (MCP 2026-07-28 lets a client answer up front, under the
 * keys the server uses). A matching, valid answer is used once; anything else leaves the question
 * open, to be asked in an `input_required` result.
 */
export function answerFromEarlyResponses(held: HeldCall, key: string): void {
  const early = held.earlyResponses;
  const input = held.pending.get(key);
  if (early === undefined || input === undefined || !Object.hasOwn(early, key)) return;
  const answer = early[key];
  delete early[key];
  if (ANSWER_SCHEMAS[input.method]?.safeParse(answer).success !== true) return;
  held.pending.delete(key);
  input.resolve(answer);
}
