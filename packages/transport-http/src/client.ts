// The client side of Streamable HTTP, for browsers, workers, Deno and Bun as well as Node: this
// entry (`@patchbay/transport-http/client`) imports no Node built-in, only web APIs (fetch,
// streams, TextDecoder, AbortController, timers). `tsconfig.client.json` compiles it without Node
// types, and tests/packaging bundles it for the browser.
export { type Clock, systemClock, type TimerHandle } from "./clock.js";
export {
  LAST_EVENT_ID_HEADER,
  MCP_PROTOCOL_VERSION_HEADER,
  MCP_SESSION_ID_HEADER,
} from "./constants.js";
export { HttpStatusError, SessionExpiredError } from "./http-errors.js";
export { readSseBody, type SseBodyCallbacks } from "./read-sse-body.js";
export {
  DEFAULT_MAX_EVENT_BYTES,
  DEFAULT_MAX_RESPONSE_BODY_BYTES,
  limitSseEvents,
  ResponseTooLargeError,
  readTextLimited,
} from "./response-limits.js";
export type { SseEvent } from "./sse-event.js";
export {
  createSseParser,
  type SseParser,
  type SseParserCallbacks,
  type SseParserOptions,
} from "./sse-parser.js";
export {
  type FetchLike,
  noRedirects,
  type ReconnectOptions,
  StreamableHttpClientTransport,
  type StreamableHttpClientTransportOptions,
} from "./streamable-http-client-transport.js";
