import { CancelledError, type JSONRPCId } from "@patchbay/jsonrpc-core";
import type { v2025_11_25 } from "@patchbay/mcp-types";
import type { ClientHandlers, ClientRequestContext } from "./client-handlers.js";
import { InputRequiredRoundsExceededError } from "./errors/input-required-rounds-exceeded-error.js";
import { UnsupportedInputRequestError } from "./errors/unsupported-input-request-error.js";
import type { JsonSchemaChecks } from "./json-schema-checks.js";

/** Retries of one request a client makes for `input_required` results by default. */
export const DEFAULT_MAX_INPUT_ROUNDS = 10;
/** Most input requests one `input_required` result may carry (a peer-facing bound). */
export const MAX_INPUT_REQUESTS_PER_ROUND = 32;
/** Longest `requestState` a client echoes back, in characters (a peer-facing bound). */
export const MAX_CLIENT_REQUEST_STATE_LENGTH = 1_000_000;

/** What answering input requests needs: the handlers, the checks and the round limit. */
export interface InputRoundsSettings {
  readonly handlers: ClientHandlers;
  readonly checks: JsonSchemaChecks;
  readonly maxRounds: number;
}

/** Sends one round of a request; `onRequestId` learns the id it went out under. */
export type SendRound = (
  params: Record<string, unknown>,
  onRequestId: (id: JSONRPCId) => void,
) => Promise<unknown>;

/**
 * Multi round-trip requests (MCP 2026-07-28): while the result is `resultType: "input_required"`,
 * answers its `inputRequests` with the same sampling/elicitation/roots handlers that answer a
 * legacy server's requests, then retries the request (a new id) with `inputResponses` and the
 * echoed `requestState`. At most `maxRounds` retries; `signal` stops it between rounds, and the
 * handlers get it too.
 */
export async function runInputRounds(
  method: string,
  params: Record<string, unknown>,
  send: SendRound,
  settings: InputRoundsSettings,
  signal: AbortSignal | undefined,
): Promise<unknown> {
  let roundParams = params;
  for (let round = 0; ; round += 1) {
    let requestId: JSONRPCId | undefined;
    const result = await send(roundParams, (id) => {
      requestId = id;
    });
    if (!isInputRequired(result)) return result;
    if (round >= settings.maxRounds) {
      throw new InputRequiredRoundsExceededError(method, settings.maxRounds);
    }
    const { inputRequests, requestState } = readInputRequired(result);
    const handlerSignal = signal ?? new AbortController().signal;
    const answers: Record<string, unknown> = {};
    await Promise.all(
      Object.entries(inputRequests).map(async ([key, request]) => {
        const context: ClientRequestContext =
          requestId === undefined
            ? { signal: handlerSignal, inputKey: key }
            : { signal: handlerSignal, inputKey: key, relatedRequestId: requestId };
        answers[key] = await answerInputRequest(request, context, settings);
      }),
    );
    if (signal?.aborted === true) {
      throw new CancelledError(`Request "${method}" was cancelled`, { cause: signal.reason });
    }
    roundParams = { ...params, inputResponses: answers };
    if (requestState !== undefined) roundParams.requestState = requestState;
  }
}

/** Whether a result asks for input (2026-07-28 `InputRequiredResult`). */
export function isInputRequired(result: unknown): result is Record<string, unknown> {
  return (
    typeof result === "object" &&
    result !== null &&
    (result as { resultType?: unknown }).resultType === "input_required"
  );
}

interface InputRequest {
  readonly method: string;
  readonly params: Record<string, unknown>;
}

function readInputRequired(result: Record<string, unknown>): {
  inputRequests: Record<string, InputRequest>;
  requestState: string | undefined;
} {
  const { inputRequests = {}, requestState } = result;
  if (typeof inputRequests !== "object" || inputRequests === null || Array.isArray(inputRequests)) {
    throw new UnsupportedInputRequestError("input_required: inputRequests must be an object");
  }
  const entries = Object.entries(inputRequests as Record<string, unknown>);
  if (entries.length > MAX_INPUT_REQUESTS_PER_ROUND) {
    throw new UnsupportedInputRequestError(
      `input_required carried ${entries.length} input requests; at most ${MAX_INPUT_REQUESTS_PER_ROUND} are answered`,
    );
  }
  if (
    requestState !== undefined &&
    (typeof requestState !== "string" || requestState.length > MAX_CLIENT_REQUEST_STATE_LENGTH)
  ) {
    throw new UnsupportedInputRequestError(
      `input_required: requestState must be a string of at most ${MAX_CLIENT_REQUEST_STATE_LENGTH} characters`,
    );
  }
  const requests: Record<string, InputRequest> = {};
  for (const [key, value] of entries) {
    const request = value as { method?: unknown; params?: unknown } | null;
    if (typeof request?.method !== "string") {
      throw new UnsupportedInputRequestError(
        `input_required: inputRequests["${key}"] has no method`,
      );
    }
    const params =
      typeof request.params === "object" && request.params !== null ? request.params : {};
    requests[key] = { method: request.method, params: params as Record<string, unknown> };
  }
  return { inputRequests: requests, requestState };
}

async function answerInputRequest(
  request: InputRequest,
  context: ClientRequestContext,
  settings: InputRoundsSettings,
): Promise<unknown> {
  const { sampling, elicitation, roots } = settings.handlers;
  if (request.method === "sampling/createMessage" && sampling !== undefined) {
    return await sampling(request.params as v2025_11_25.CreateMessageRequestParams, context);
  }
  if (request.method === "elicitation/create" && elicitation !== undefined) {
    const params = request.params as v2025_11_25.ElicitRequestParams;
    const answer = await elicitation(params, context);
    await settings.checks.checkElicitationAnswer(params, answer);
    return answer;
  }
  if (request.method === "roots/list" && roots !== undefined) return await roots(context);
  throw new UnsupportedInputRequestError(
    `The server asked for ${request.method} input, which this client has no handler for`,
  );
}
