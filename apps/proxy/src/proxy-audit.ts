import { resolve } from "node:path";
import type { AuditConfig } from "@patchbay/router";
import { openAuditLog } from "@patchbay/router/config-file";
import type { AuditLog, Telemetry } from "@patchbay/telemetry";
import type { ProxyLog } from "./proxy-log.js";

/**
 * The proxy's audit log, from the config's `audit` block: a rotated file (relative to the config
 * file) or stdout (`"-"`); write failures go to the operational log once.
 */
export function openProxyAudit(
  config: AuditConfig | undefined,
  configPath: string | undefined,
  telemetry: Telemetry,
  log: ProxyLog,
): AuditLog | undefined {
  return openAuditLog(config, {
    configPath: configPath === undefined ? resolve("patchbay.json") : resolve(configPath),
    stdout: (text) => new Promise<void>((done) => process.stdout.write(text, () => done())),
    redact: telemetry.redact,
    onError: (error) => log.warn(`audit log write failed: ${String(error)}`),
  });
}
