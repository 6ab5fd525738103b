import type { IncomingMessage } from "node:http";
import type { HttpRequestView } from "./http-io.js";
import { readBody } from "./read-body.js";

/**
 * The node:http adapter's request side: the `IncomingMessage`'s own method and headers object
 * (nothing is copied or converted), its body read as a stream.
 */
export function nodeRequestView(request: IncomingMessage): HttpRequestView<IncomingMessage> {
  return {
    method: request.method ?? "GET",
    headers: request.headers,
    raw: request,
    readBody: (maxBytes) => readBody(request, maxBytes),
  };
}
