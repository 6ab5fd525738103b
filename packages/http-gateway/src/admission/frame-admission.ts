import {
  type Frame,
  type FrameInfo,
  isBatch,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
} from "@patchbay/jsonrpc-core";
import {
  RATE_LIMITED_CODE,
  type RateLimiter,
  type Refusal,
  rateLimited,
  type SharedRateLimiter,
} from "./admission.js";
import { batchTooLarge } from "./batch-limit.js";

/** The buckets that pay for the requests of one admitted connection (see `addressKey`, `tokenKey`). */
export interface FramePayer {
  readonly addressKey: string;
  /** The token's bucket; `undefined` when auth is off (then only the address pays, as on HTTP). */
  readonly tokenKey: string | undefined;
}

/** What charging needs: the HTTP entries' own limiter, so both kinds of entry share buckets. */
export interface FrameAdmissionOptions {
  readonly limiter: RateLimiter | SharedRateLimiter;
  readonly requestsPerMinute: number;
}

/** One request refused, for logs and metrics (`request` is absent for a whole batch refused). */
export interface RefusedRequest {
  readonly request?: JSONRPCRequest;
  readonly refusal: Refusal;
}

/** What admission made of one incoming frame. */
export interface AdmittedFrame {
  /** The part that goes on to the router; `undefined` when nothing does. */
  readonly frame: Frame | undefined;
  /** Its info; refused entries of a batch are added to `rejected`, so the batch's reply answers them. */
  readonly info: FrameInfo;
  /** Answers owed at once, outside any batch reply: a refused single request, an oversized batch. */
  readonly answers: readonly JSONRPCErrorResponse[];
  readonly refused: readonly RefusedRequest[];
}

/**
 * A batch of more than `maxBatchSize` entries is refused whole (one -32600, as plain JSON-RPC
 * answers it) and none of it goes on; any other frame goes on untouched.
 */
export function limitBatchSize(frame: Frame, info: FrameInfo, maxBatchSize: number): AdmittedFrame {
  const size = isBatch(frame) ? frame.length + (info.rejected?.length ?? 0) : 1;
  if (size <= maxBatchSize) return { frame, info, answers: [], refused: [] };
  const answer = batchTooLarge(size, maxBatchSize);
  const refusal = { status: 413, message: answer.error.message, code: answer.error.code };
  return { frame: undefined, info, answers: [answer], refused: [{ refusal }] };
}

/**
 * Each request, single or in a batch, costs one unit of the connection's address bucket and token
 * bucket, as each HTTP request does (-32015 `RateLimited` when one is empty). Notifications and responses cost
 * nothing: they run no call.
 */
export async function chargeRequests(
  frame: Frame,
  info: FrameInfo,
  payer: FramePayer,
  options: FrameAdmissionOptions,
): Promise<AdmittedFrame> {
  const admitted: JSONRPCMessage[] = [];
  const owed: JSONRPCErrorResponse[] = [];
  const refused: RefusedRequest[] = [];
  for (const message of isBatch(frame) ? frame : [frame]) {
    const refusal = isRequest(message) ? await charge(payer, options) : undefined;
    if (refusal === undefined) {
      admitted.push(message);
      continue;
    }
    const request = message as JSONRPCRequest;
    owed.push(refusalAnswer(request, refusal));
    refused.push({ request, refusal });
  }
  if (!isBatch(frame)) return { frame: admitted[0], info, answers: owed, refused };
  if (owed.length === 0) return { frame, info, answers: [], refused };
  // The batch's one reply answers the refused entries beside the router's answers.
  const rejected = [...(info.rejected ?? []), ...owed];
  return { frame: admitted, info: { ...info, rejected }, answers: [], refused };
}

function isRequest(message: JSONRPCMessage): message is JSONRPCRequest {
  return "method" in message && "id" in message;
}

/**
 * Takes `units` units, one at a time, from the payer's address and token buckets; the refusal of
 * the first bucket found empty (the units taken before it stay spent).
 */
export async function chargeUnits(
  payer: FramePayer,
  units: number,
  options: FrameAdmissionOptions,
): Promise<Refusal | undefined> {
  for (let unit = 0; unit < units; unit++) {
    const refusal = await charge(payer, options);
    if (refusal !== undefined) return refusal;
  }
  return undefined;
}

/** Takes one unit from the address bucket, then from the token bucket; the refusal of the first empty one. */
async function charge(
  payer: FramePayer,
  options: FrameAdmissionOptions,
): Promise<Refusal | undefined> {
  const byAddress = await options.limiter.take(payer.addressKey);
  if (!byAddress.allowed) {
    return rateLimited(byAddress.retryAfterSeconds, options.requestsPerMinute, "address");
  }
  if (payer.tokenKey === undefined) return undefined;
  const byToken = await options.limiter.take(payer.tokenKey);
  if (!byToken.allowed) {
    return rateLimited(byToken.retryAfterSeconds, options.requestsPerMinute, "token");
  }
  return undefined;
}

/** The JSON-RPC answer of a request refused by a rate limit: the 429 body's code and message. */
function refusalAnswer(request: JSONRPCRequest, refusal: Refusal): JSONRPCErrorResponse {
  return {
    jsonrpc: "2.0",
    id: request.id,
    error: {
      code: refusal.code ?? RATE_LIMITED_CODE,
      message: refusal.message,
      ...(refusal.headers?.["retry-after"] === undefined
        ? {}
        : { data: { retryAfterSeconds: Number(refusal.headers["retry-after"]) } }),
    },
  };
}
