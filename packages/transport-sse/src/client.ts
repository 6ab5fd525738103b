// The client side of the legacy HTTP+SSE transport, for browsers, workers, Deno and Bun as well as
// Node (`@patchbay/transport-sse/client`): no Node built-in is imported here, nor by `eventsource`
// or `@patchbay/transport-http/client` beneath it. `tsconfig.client.json` compiles it without Node
// types, and tests/packaging bundles it for the browser.
export {
  FallbackClientTransport,
  type FallbackClientTransportOptions,
  type SettledTransportKind,
} from "./fallback-client-transport.js";
export { SseClientTransport, type SseClientTransportOptions } from "./sse-client-transport.js";
