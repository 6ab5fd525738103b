export {
  type CliArguments,
  parseCliArguments,
  type TransportKind,
  USAGE,
} from "./cli-arguments.js";
export { createSampleServer, type SampleServerOptions } from "./sample-server.js";
