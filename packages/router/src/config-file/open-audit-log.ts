import { dirname, resolve } from "node:path";
import {
  type AuditLog,
  type AuditSink,
  createAuditFileSink,
  createAuditLog,
  createAuditStreamSink,
  type Redact,
} from "@patchbay/telemetry";
import type { AuditConfig } from "../config/governance-config-schema.js";

/** Options of {@link openAuditLog}. */
export interface OpenAuditLogOptions {
  /** The config file: a relative `audit.file` is resolved against its directory. */
  readonly configPath: string;
  /**
   * Writes text to the process's stdout, for `file: "-"`; absent where stdout is taken (the stdio
   * gateway speaks the protocol on it), and then `"-"` is refused.
   */
  readonly stdout?: (text: string) => Promise<void>;
  /** Masks secrets in `full` arguments (the telemetry's redaction, which knows the config's). */
  readonly redact: Redact;
  /** Told once about the first failed write. */
  readonly onError: (error: unknown) => void;
}

/** The audit log an `audit` block asks for: none without a block or a `file`. */
export function openAuditLog(
  config: AuditConfig | undefined,
  options: OpenAuditLogOptions,
): AuditLog | undefined {
  if (config?.file === undefined) return undefined;
  let sink: AuditSink;
  if (config.file === "-") {
    if (options.stdout === undefined) {
      throw new Error(
        'audit.file: "-" (stdout) carries the protocol here; give the audit log a file',
      );
    }
    sink = createAuditStreamSink(options.stdout);
  } else {
    sink = createAuditFileSink({
      path: resolve(dirname(options.configPath), config.file),
      ...(config.maxBytes === undefined ? {} : { maxBytes: config.maxBytes }),
      ...(config.maxFiles === undefined ? {} : { maxFiles: config.maxFiles }),
    });
  }
  return createAuditLog({
    sink,
    redact: options.redact,
    onError: options.onError,
    ...(config.arguments === undefined ? {} : { arguments: config.arguments }),
  });
}
