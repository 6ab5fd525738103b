import { parseArgs } from "node:util";

/** The transports the sample backend serves. */
export type TransportKind = "stdio" | "http" | "sse" | "ws";

/** Parsed command line of `patchbay-sample-backend`. */
export interface CliArguments {
  transport: TransportKind;
  host: string;
  port: number;
  /** `--step-delay-ms`: pause after each progress report (absent: the server's default, 50). */
  stepDelayMs?: number;
  /** `-h`/`--help`: print the usage to stdout and exit 0. */
  help: boolean;
  /** `--version`: print the version to stdout and exit 0. */
  version: boolean;
}

/** Usage text printed for `--help` and after a bad argument. */
export const USAGE =
  "Usage: patchbay-sample-backend [--transport stdio|http|sse|ws] [--host 127.0.0.1] [--port N] [--step-delay-ms N]\n" +
  "  --transport      how to serve: stdio (default), http (Streamable HTTP at /mcp), sse (legacy HTTP+SSE at /sse)\n" +
  "                   or ws (WebSocket at ws://host:port/mcp, subprotocol mcp)\n" +
  "  --host           address to bind for http/sse/ws (default 127.0.0.1)\n" +
  "  --port           port for http/sse/ws (default $PORT or 3000; 0 picks a free port)\n" +
  "  --step-delay-ms  pause after each progress report of the progress tools (default 50; 0: none)\n" +
  "  -h, --help       show this help\n" +
  "  --version        show the version\n";

// One entry per option (node:util parseArgs); a new flag is one more line here and in USAGE.
const OPTIONS = {
  transport: { type: "string" },
  host: { type: "string" },
  port: { type: "string" },
  "step-delay-ms": { type: "string" },
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
  const stepDelayText = values["step-delay-ms"];
  if (stepDelayText === undefined) return parsed;
  if (!/^\d+$/.test(stepDelayText) || Number(stepDelayText) > 60_000) {
    throw new TypeError(`--step-delay-ms must be an integer from 0 to 60000, got ${stepDelayText}`);
  }
  return { ...parsed, stepDelayMs: Number(stepDelayText) };
}
