export {
  type CliArguments,
  parseCliArguments,
  type TransportKind,
  USAGE,
} from "./cli-arguments.js";
export { createSampleServer, type SampleServerOptions } from "./sample-server.js";
export { type RunningListener, serveHttp } from "./serve-http.js";
export { serveSse } from "./serve-sse.js";
export { serveWs } from "./serve-ws.js";
