import { InvalidParamsError, JSONRPCError } from "@patchbay/jsonrpc-core";
import { ErrorCode, v2026_07_28 } from "@patchbay/mcp-types";

/** The result shape each kind of input request must be answered with (2026-07-28 schemas). */
const ANSWER_SCHEMAS: Record<string, { safeParse(value: unknown): { success: boolean } }> = {
  "elicitation/create": v2026_07_28.ElicitResultSchema,
  "sampling/createMessage": v2026_07_28.CreateMessageResultSchema,
  "roots/list": v2026_07_28.ListRootsResultSchema,
};

/** Throws -32602 unless `answer` is a valid result of the input request `method` asked under `key`. */
export function checkInputAnswer(method: string, key: string, answer: unknown): void {
  // A client's answer is input like any other: a malformed one is -32602, not handler data.
  if (ANSWER_SCHEMAS[method]?.safeParse(answer).success !== true) {
    throw new InvalidParamsError(`inputResponses["${key}"] is not a valid ${method} result`);
  }
}

/** The longest input request key a handler may choose. */
export const MAX_INPUT_KEY_LENGTH = 128;

/** Most input requests one handler may ask for in one round (a peer-facing bound). */
export const MAX_INPUT_REQUESTS_PER_ROUND = 32;

/**
 * Thrown into a handler that asked for input the client has not given yet (internal). A wire error
 * class only so that tool runners pass it through untouched; the dispatcher turns it into an
 * `input_required` result and it never reaches the wire.
 */
export class InputRequiredSignal extends JSONRPCError {
  constructor() {
    super(
      ErrorCode.InternalError,
      "input required: the request ends with resultType input_required",
    );
    this.name = "InputRequiredSignal";
  }
}

/**
 * One MRTR round of one request (MCP 2026-07-28 "multi round-trip requests"): a handler's
 * `elicit`/`sample`/`listRoots` calls are numbered in call order; a call whose key has an answer
 * (from this retry's `inputResponses` or an earlier round's `requestState`) resolves with it, and
 * any other is recorded as an input request and rejects with `InputRequiredSignal`. The handler runs
 * again from the start on every retry, so it must ask in the same order each time.
 */
export class InputRound {
  readonly #answers: Record<string, unknown>;
  readonly #pending: Record<string, { method: string; params: Record<string, unknown> }> = {};
  #count = 0;

  constructor(answers: Record<string, unknown>) {
    this.#answers = answers;
  }

  /** The answer for the next call, or a rejection after recording the request. */
  ask(method: string, params: Record<string, unknown>, inputKey?: string): Promise<unknown> {
    const key = inputKey ?? `${method.split("/")[0]}-${this.#count}`;
    this.#count += 1;
    if (
      key.length === 0 ||
      key.length > MAX_INPUT_KEY_LENGTH ||
      Object.hasOwn(this.#pending, key)
    ) {
      return Promise.reject(
        new JSONRPCError(ErrorCode.InternalError, `Invalid or repeated input request key: ${key}`),
      );
    }
    if (Object.hasOwn(this.#answers, key)) {
      const answer = this.#answers[key];
      try {
        checkInputAnswer(method, key, answer);
      } catch (error) {
        return Promise.reject(error);
      }
      return Promise.resolve(answer);
    }
    if (Object.keys(this.#pending).length >= MAX_INPUT_REQUESTS_PER_ROUND) {
      return Promise.reject(
        new JSONRPCError(
          ErrorCode.InternalError,
          `A handler asked for more than ${MAX_INPUT_REQUESTS_PER_ROUND} inputs in one round`,
        ),
      );
    }
    this.#pending[key] = { method, params };
    return Promise.reject(new InputRequiredSignal());
  }

  /** Input requests recorded this round (empty when the handler had every answer). */
  get pending(): Record<string, { method: string; params: Record<string, unknown> }> {
    return this.#pending;
  }

  /** Every answer known this round, to carry into the next round's state. */
  get answers(): Record<string, unknown> {
    return this.#answers;
  }
}
