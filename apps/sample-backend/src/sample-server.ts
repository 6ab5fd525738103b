import { createServer, type Server } from "@patchbay/server";
import { registerPrompts } from "./prompts/register-prompts.js";
import { registerResources } from "./resources/register-resources.js";
import { registerClientRequestTools } from "./tools/client-request-tools.js";
import { registerContentTools } from "./tools/content-tools.js";
import { registerLargeResultTool } from "./tools/large-result-tool.js";
import { registerStructuredTools } from "./tools/structured-tools.js";
import { registerTaskTools } from "./tools/task-tools.js";

/** Options of the sample server. */
export interface SampleServerOptions {
  /** Items per page of every list (default 100); tests use a small one to exercise pagination. */
  pageSize?: number;
}

/**
 * The one definition of the sample backend's tools, resources and prompts. Every transport serves
 * this same object: `server.connect(transport)` once per connection.
 */
export function createSampleServer(options: SampleServerOptions = {}): Server {
  const server = createServer({
    name: "patchbay-sample-backend",
    title: "Patchbay sample backend",
    version: "0.0.0",
    instructions:
      "A reference MCP server: its tools exercise every protocol feature (content types, structured output, progress, cancellation, logging, sampling, elicitation, roots).",
    ...(options.pageSize === undefined ? {} : { pageSize: options.pageSize }),
  });
  registerContentTools(server);
  registerStructuredTools(server);
  registerTaskTools(server);
  registerClientRequestTools(server);
  registerLargeResultTool(server);
  registerResources(server);
  registerPrompts(server);
  return server;
}
