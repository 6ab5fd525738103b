import { dirname, resolve } from "node:path";
import type { GatewayConfig } from "@patchbay/router";

/** The pin file of a config: `pins.file` (relative to the config's directory), else `<config>.pins.json`. */
export function pinFileOf(configPath: string, config: GatewayConfig): string {
  const file = config.pins?.file;
  return file === undefined ? `${configPath}.pins.json` : resolve(dirname(configPath), file);
}
