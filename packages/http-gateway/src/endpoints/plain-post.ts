import type { IncomingMessage, ServerResponse } from "node:http";
import { ErrorCode } from "@patchbay/jsonrpc-core";
import {
  BodyTooLargeError,
  hasContentType,
  headerValue,
  readBody,
  writeJsonBody,
} from "@patchbay/transport-http";
import type { Refusal } from "../admission/admission.js";
import type { PlainJsonRpcEndpoint } from "./plain-json-rpc.js";

/** What {@link answerPlainPost} needs. */
export interface PlainPostOptions {
  readonly endpoint: PlainJsonRpcEndpoint;
  readonly maxBodyBytes: number;
  /** Charges a batch of `requests` requests beyond the one its entry paid; a refusal answers the POST. */
  readonly chargeBatch: (requests: number) => Promise<Refusal | undefined>;
}

/**
 * Answers a plain JSON-RPC POST (no session, `Accept` without `text/event-stream`): JSON-RPC errors
 * come with HTTP 200 as JSON-RPC over HTTP does; a body of notifications only gets 202. Returns a
 * refusal for HTTP-level problems (415, 413).
 */
export async function answerPlainPost(
  request: IncomingMessage,
  response: ServerResponse,
  options: PlainPostOptions,
): Promise<Refusal | undefined> {
  if (!hasContentType(headerValue(request, "content-type"), "application/json")) {
    return { status: 415, message: "expected Content-Type: application/json" };
  }
  let text: string;
  try {
    text = await readBody(request, options.maxBodyBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      return {
        status: 413,
        message: `request body exceeds the limit of ${options.maxBodyBytes} bytes`,
      };
    }
    throw error;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    writeJsonBody(response, 200, {
      jsonrpc: "2.0",
      id: null,
      error: { code: ErrorCode.ParseError, message: `parse error: ${(error as Error).message}` },
    });
    return undefined;
  }
  if (Array.isArray(body)) {
    const requests = body.filter(
      (message) =>
        typeof message === "object" && message !== null && "method" in message && "id" in message,
    );
    const refusal = await options.chargeBatch(requests.length);
    if (refusal !== undefined) return refusal;
  }
  const answer = await options.endpoint.answer(body);
  if (answer === undefined) {
    response.writeHead(202).end();
    return undefined;
  }
  writeJsonBody(response, 200, answer);
  return undefined;
}
