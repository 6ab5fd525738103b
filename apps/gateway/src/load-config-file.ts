import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import { GatewayConfigError, type ParsedGatewayConfig, parseGatewayConfig } from "@patchbay/router";
import { parse as parseYaml } from "yaml";

/**
 * Reads a gateway config file (JSON, or YAML for `.yaml`/`.yml`), expands `${VAR}` from
 * `environment` and validates it. Throws `GatewayConfigError` naming the file and each problem.
 */
export async function loadConfigFile(
  path: string,
  environment: Readonly<Record<string, string | undefined>>,
): Promise<ParsedGatewayConfig> {
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
  let value: unknown;
  const yaml = [".yaml", ".yml"].includes(extname(path).toLowerCase());
  try {
    value = yaml ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    throw new GatewayConfigError(
      [{ path: "", message: `not valid ${yaml ? "YAML" : "JSON"}: ${(error as Error).message}` }],
      path,
      { cause: error },
    );
  }
  return parseGatewayConfig(value, { environment, source: path });
}
