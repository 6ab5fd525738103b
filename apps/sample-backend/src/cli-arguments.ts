import { parseArgs } from "node:util";
import { PROTOCOL_VERSIONS } from "@patchbay/mcp-types";

/** The transports the sample backend serves. */
export type TransportKind = "stdio" | "http" | "sse" | "ws";

/** Parsed command line of `patchbay-sample-backend`. */
export interface CliArguments {
  transport: TransportKind;
  host: string;
  port: number;
  /** `--step-delay-ms`: pause after each progress report (absent: the server's default, 50). */
  stepDelayMs?: number;
  /** `--task-second-ms`: how long one `seconds` of `slow_compute` lasts (absent: 1000). */
  taskSecondMs?: number;
  /** `--protocol-versions`: the revisions served on every transport (absent: every known one). */
  protocolVersions?: string[];
  /** `-h`/`--help`: print the usage to stdout and exit 0. */
  help: boolean;
  /** `--version`: print the version to stdout and exit 0. */
  version: boolean;
}

/** Usage text printed for `--help` and after a bad argument. */
export const USAGE =
  "Usage: patchbay-sample-backend [--transport stdio|http|sse|ws] [--host 127.0.0.1] [--port N] [--step-delay-ms N]\n" +
  "                               [--task-second-ms N] [--protocol-versions LIST]\n" +
  "  --transport      how to serve: stdio (default), http (Streamable HTTP at /mcp), sse (legacy HTTP+SSE at /sse)\n" +
  "                   or ws (WebSocket at ws://host:port/mcp, subprotocol mcp)\n" +
  "  --host           address to bind for http/sse/ws (default 127.0.0.1)\n" +
  "  --port           port for http/sse/ws (default $PORT or 3000; 0 picks a free port)\n" +
  "  --step-delay-ms  pause after each progress report of the progress tools (default 50; 0: none)\n" +
  "  --task-second-ms  ms in one `seconds` of the slow_compute task tool (default 1000; tests speed it up)\n" +
  "  --protocol-versions  comma-separated revisions to accept on every transport (default: all of\n" +
  `                   ${PROTOCOL_VERSIONS.join(", ")}); 2025-11-25 alone: legacy only,\n` +
  "                   2026-07-28 alone: modern only\n" +
  "  -h, --help       show this help\n" +
  "  --version        show the version\n";

// One entry per option (node:util parseArgs); a new flag is one more line here and in USAGE.
const OPTIONS = {
  transport: { type: "string" },
  host: { type: "string" },
  port: { type: "string" },
  "step-delay-ms": { type: "string" },
  "task-second-ms": { type: "string" },
  "protocol-versions": { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
} as const;

const TRANSPORTS: readonly string[] = ["stdio", "http", "sse", "ws"];

/**
 * Parses the command line (`--name value` and `--name=value`); throws a `TypeError` that names
 * the bad argument.
 */
export function parseCliArguments(
  argv: readonly string[],
  environment: Readonly<Record<string, string | undefined>> = {},
): CliArguments {
  const { values } = parseArgs({
    args: [...argv],
    options: OPTIONS,
    strict: true,
    allowPositionals: false,
  });
  const transport = values.transport ?? "stdio";
  if (!TRANSPORTS.includes(transport)) {
    throw new TypeError(`--transport must be stdio, http, sse or ws, got ${transport}`);
  }
  const portText = values.port ?? environment.PORT ?? "3000";
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65_535) {
    throw new TypeError(`--port must be an integer from 0 to 65535, got ${portText}`);
  }
  const parsed: CliArguments = {
    transport: transport as TransportKind,
    host: values.host ?? "127.0.0.1",
    port,
    help: values.help === true,
    version: values.version === true,
  };
  const versionsText = values["protocol-versions"];
  if (versionsText !== undefined) parsed.protocolVersions = parseProtocolVersions(versionsText);
  const taskSecondText = values["task-second-ms"];
  if (taskSecondText !== undefined) {
    if (!/^\d+$/.test(taskSecondText) || Number(taskSecondText) > 60_000) {
      throw new TypeError(
        `--task-second-ms must be an integer from 0 to 60000, got ${taskSecondText}`,
      );
    }
    parsed.taskSecondMs = Number(taskSecondText);
  }
  const stepDelayText = values["step-delay-ms"];
  if (stepDelayText === undefined) return parsed;
  if (!/^\d+$/.test(stepDelayText) || Number(stepDelayText) > 60_000) {
    throw new TypeError(`--step-delay-ms must be an integer from 0 to 60000, got ${stepDelayText}`);
  }
  return { ...parsed, stepDelayMs: Number(stepDelayText) };
}

/** Reads `--protocol-versions`: a comma-separated, non-empty list of known revisions. */
function parseProtocolVersions(text: string): string[] {
  const versions = text
    .split(",")
    .map((version) => version.trim())
    .filter((version) => version !== "");
  const known: readonly string[] = PROTOCOL_VERSIONS;
  const unknown = versions.filter((version) => !known.includes(version));
  if (versions.length === 0 || unknown.length > 0) {
    throw new TypeError(
      `--protocol-versions must list revisions from ${known.join(", ")}, got ${
        versions.length === 0 ? "none" : unknown.join(", ")
      }`,
    );
  }
  return [...new Set(versions)];
}
