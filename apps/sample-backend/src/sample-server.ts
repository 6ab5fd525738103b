import { createServer, type Server } from "@patchbay/server";
import { registerPrompts } from "./prompts/register-prompts.js";
import { registerResources } from "./resources/register-resources.js";
import { registerBackgroundTaskTools } from "./tools/background-task-tools.js";
import { registerClientRequestTools } from "./tools/client-request-tools.js";
import { registerContentTools } from "./tools/content-tools.js";
import { registerHeaderParamTools } from "./tools/header-param-tools.js";
import {
  registerInputRequiredPrompt,
  registerInputRequiredTools,
} from "./tools/input-required-tools.js";
import { registerLargeResultTool } from "./tools/large-result-tool.js";
import { registerStatelessProbeTools } from "./tools/stateless-probe-tools.js";
import { registerStructuredTools } from "./tools/structured-tools.js";
import { registerTaskTools } from "./tools/task-tools.js";
import { SAMPLE_BACKEND_VERSION } from "./version.js";

/** Options of the sample server. */
export interface SampleServerOptions {
  /** Items per page of every list (default 100); tests use a small one to exercise pagination. */
  pageSize?: number;
  /**
   * Pause in ms after each progress report of `test_tool_with_progress` and after the last one of
   * `long_task` (default 50, as the MCP conformance fixture server; 0 turns pacing off). Without it
   * progress and result reach the client in one read, and SDK 1.x clients drop the progress.
   */
  stepDelayMs?: number;
  /**
   * How long one `seconds` of the `slow_compute` task tool lasts, in ms (default 1000): the
   * conformance test shortens the tasks scenarios' waits with it.
   */
  taskSecondMs?: number;
  /**
   * The revisions served on every transport (default: every revision `@patchbay/mcp-types` knows):
   * `["2025-11-25"]` stands up a legacy-only backend, `["2026-07-28"]` a modern-only one.
   */
  protocolVersions?: readonly string[];
}

/** The default pause after a progress report, in ms (see `SampleServerOptions.stepDelayMs`). */
export const DEFAULT_STEP_DELAY_MS = 50;

/**
 * The one definition of the sample backend's tools, resources and prompts. Every transport serves
 * this same object: `server.connect(transport)` once per connection.
 */
export function createSampleServer(options: SampleServerOptions = {}): Server {
  const stepDelayMs = options.stepDelayMs ?? DEFAULT_STEP_DELAY_MS;
  if (!Number.isInteger(stepDelayMs) || stepDelayMs < 0 || stepDelayMs > 60_000) {
    throw new RangeError(`stepDelayMs must be an integer from 0 to 60000, got ${stepDelayMs}`);
  }
  const server = createServer({
    name: "patchbay-sample-backend",
    title: "Patchbay sample backend",
    version: SAMPLE_BACKEND_VERSION,
    instructions:
      "A reference MCP server: its tools exercise every protocol feature (content types, structured output, progress, cancellation, logging, sampling, elicitation, roots).",
    ...(options.pageSize === undefined ? {} : { pageSize: options.pageSize }),
    ...(options.protocolVersions === undefined
      ? {}
      : { protocolVersions: options.protocolVersions }),
    // Clients poll a task as often as it says: a faster "second" (tests) asks for faster polls.
    ...(options.taskSecondMs === undefined
      ? {}
      : {
          tasks: { pollIntervalMs: Math.max(10, Math.round(options.taskSecondMs / 2)) },
        }),
  });
  registerContentTools(server);
  registerStructuredTools(server);
  registerTaskTools(server, stepDelayMs);
  registerBackgroundTaskTools(server, { secondMs: options.taskSecondMs ?? 1000, jobDelayMs: 100 });
  registerClientRequestTools(server);
  registerInputRequiredTools(server);
  registerStatelessProbeTools(server);
  registerHeaderParamTools(server);
  registerLargeResultTool(server);
  registerResources(server);
  registerPrompts(server);
  registerInputRequiredPrompt(server);
  return server;
}
