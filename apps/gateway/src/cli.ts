#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { createLogger, isLogLevel, LOG_LEVELS } from "./logger.js";

const version = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  }
).version;

const help = `Usage: patchbay-gateway --config <file> [--log-level <level>]
       patchbay-gateway pins list|approve <name>|approve --all --config <file>
       patchbay-gateway login <backend> [--config <file>] [--no-browser]

One MCP server on stdin/stdout that aggregates the MCP servers listed in <file>
(JSON, or YAML for .yaml/.yml) under namespaced names, plus the tools
gateway_status and get_events. Changes to <file> are applied without a restart.

Options:
  -c, --config <file>      the gateway config (an "mcpServers" block as AI clients write it)
  -l, --log-level <level>  ${LOG_LEVELS.join(" | ")} (default info); logs go to stderr
  -h, --help               show this help
  -v, --version            show the version
`;

/**
 * A config error's message alone, else `otherwise`. The router is imported here, not at the top:
 * `--help` and `--version` answer without loading it (by a failure, the gateway loaded it).
 */
async function failureText(error: unknown, otherwise: string): Promise<string> {
  const { GatewayConfigError } = await import("@patchbay/router");
  return error instanceof GatewayConfigError ? error.message : otherwise;
}

async function main(): Promise<number> {
  if (process.argv[2] === "pins") {
    // Loaded only here: the pin commands need none of the gateway's transports.
    const { runPinsCommand } = await import("./pins-command.js");
    return await runPinsCommand(process.argv.slice(3), {
      out: (text) => process.stdout.write(text),
      err: (text) => process.stderr.write(text),
    }).catch(async (error: unknown) => {
      process.stderr.write(`patchbay-gateway pins: ${await failureText(error, String(error))}\n`);
      return 1;
    });
  }
  if (process.argv[2] === "login") {
    const { runLoginCommand } = await import("./login-command.js");
    return await runLoginCommand(
      process.argv.slice(3),
      { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) },
      { environment: process.env },
    ).catch(async (error: unknown) => {
      // The message alone: a sign-in's errors say which step failed, never a token.
      const message = error instanceof Error ? error.message : String(error);
      process.stderr.write(`patchbay-gateway login: ${await failureText(error, message)}\n`);
      return 1;
    });
  }
  let values: { config?: string; "log-level"?: string; help?: boolean; version?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        config: { type: "string", short: "c" },
        "log-level": { type: "string", short: "l" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "v" },
      },
      strict: true,
    }));
  } catch (error) {
    process.stderr.write(`patchbay-gateway: ${(error as Error).message}\n\n${help}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(help);
    return 0;
  }
  if (values.version) {
    process.stdout.write(`${version}\n`);
    return 0;
  }
  const level = values["log-level"] ?? "info";
  if (!isLogLevel(level)) {
    process.stderr.write(`patchbay-gateway: --log-level must be one of ${LOG_LEVELS.join(", ")}\n`);
    return 2;
  }
  if (values.config === undefined) {
    process.stderr.write(`patchbay-gateway: --config <file> is required\n\n${help}`);
    return 2;
  }
  const logger = createLogger(level);
  try {
    const { startGateway } = await import("./gateway.js");
    const gateway = await startGateway({ configPath: values.config, logger, version });
    // `on`, not `once`: a handler must stay registered so that transport-stdio's safety net leaves
    // shutdown to us (it only acts on signals nobody handles). A second signal forces the exit.
    let signalled = false;
    const onSignal = () => {
      if (signalled) process.exit(1);
      signalled = true;
      void gateway.stop();
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
    await gateway.stopped;
    return 0;
  } catch (error) {
    logger.error(await failureText(error, String((error as Error).stack ?? error)));
    return 1;
  }
}

// Exit explicitly: a backend transport or timer left behind must not keep the gateway alive.
process.exit(await main());
