/// <reference types="node" />
// Node only: this entry reads and watches files (the router itself needs no Node API).
import { readFile } from "node:fs/promises";
import {
  type ConfigBlocks,
  configFormatOf,
  GatewayConfigError,
  type NoConfigBlocks,
  type ParsedGatewayConfig,
  type ParseGatewayConfigOptions,
  parseConfigText,
} from "../index.js";

/**
 * Reads a gateway config file (JSON, JSON with comments, or YAML for `.yaml`/`.yml`), expands
 * `${VAR}` from `environment` and validates it, with the blocks an app adds or ignores (see
 * `parseGatewayConfig`). Throws `GatewayConfigError` naming the file and each problem.
 */
export async function loadConfigFile<Blocks extends ConfigBlocks = NoConfigBlocks>(
  path: string,
  environment: Readonly<Record<string, string | undefined>>,
  options: Pick<ParseGatewayConfigOptions<Blocks>, "blocks" | "ignoreBlocks"> = {},
): Promise<ParsedGatewayConfig<Blocks>> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new GatewayConfigError(
      [{ path: "", message: `cannot read the file: ${(error as Error).message}` }],
      path,
      { cause: error },
    );
  }
  return parseConfigText(text, configFormatOf(path), { ...options, environment, source: path });
}
