/** The transports the sample backend serves. */
export type TransportKind = "stdio" | "http" | "sse" | "ws";

/** Parsed command line of `patchbay-sample-backend`. */
export interface CliArguments {
  transport: TransportKind;
  host: string;
  port: number;
}

/** Usage text printed for `--help` and after a bad argument. */
export const USAGE =
  "Usage: patchbay-sample-backend --transport stdio|http|sse|ws [--host 127.0.0.1] [--port N]\n" +
  "  --transport  how to serve: stdio (default), http (Streamable HTTP at /mcp), sse (legacy HTTP+SSE at /sse)\n" +
  "               or ws (WebSocket at ws://host:port/mcp, subprotocol mcp)\n" +
  "  --host       address to bind for http/sse/ws (default 127.0.0.1)\n" +
  "  --port       port for http/sse/ws (default $PORT or 3000; 0 picks a free port)\n";

/**
 * Parses `--transport`, `--host` and `--port` (also as `--name=value`); throws a `TypeError` that
 * names the bad argument.
 */
export function parseCliArguments(
  argv: readonly string[],
  environment: Readonly<Record<string, string | undefined>> = {},
): CliArguments {
  const values = new Map<string, string>();
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] as string;
    if (!argument.startsWith("--")) throw new TypeError(`Unexpected argument: ${argument}`);
    const equals = argument.indexOf("=");
    const name = equals === -1 ? argument.slice(2) : argument.slice(2, equals);
    if (!["transport", "host", "port"].includes(name))
      throw new TypeError(`Unknown option: --${name}`);
    const value = equals === -1 ? argv[++index] : argument.slice(equals + 1);
    if (value === undefined) throw new TypeError(`Option --${name} needs a value`);
    values.set(name, value);
  }
  const transport = values.get("transport") ?? "stdio";
  if (transport !== "stdio" && transport !== "http" && transport !== "sse" && transport !== "ws") {
    throw new TypeError(`--transport must be stdio, http, sse or ws, got ${transport}`);
  }
  const portText = values.get("port") ?? environment.PORT ?? "3000";
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65_535) {
    throw new TypeError(`--port must be an integer from 0 to 65535, got ${portText}`);
  }
  return { transport, host: values.get("host") ?? "127.0.0.1", port };
}
