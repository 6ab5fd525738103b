import { readFile } from "node:fs/promises";
import {
  configFormatOf,
  GatewayConfigError,
  type ParsedGatewayConfig,
  parseConfigText,
} from "@patchbay/router";

/** Reads and validates a proxy config file (JSON, JSON with comments, or YAML). */
export async function loadProxyConfig(
  path: string,
  environment: Readonly<Record<string, string | undefined>>,
): Promise<ParsedGatewayConfig> {
  const text = await readFile(path, "utf8").catch((error: Error) => {
    throw new GatewayConfigError(
      [{ path: "", message: `cannot read the file: ${error.message}` }],
      path,
      { cause: error },
    );
  });
  return parseConfigText(text, configFormatOf(path), { environment, source: path });
}
