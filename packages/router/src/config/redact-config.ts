import type { BackendConfig, GatewayConfig } from "./gateway-config.js";

/** What replaces a secret in anything the gateway shows. */
export const REDACTED = "[redacted]";

const secretWord = /token|secret|password|passwd|key|auth|credential|bearer/i;

/**
 * Masks the secrets of a backend's `args`: the value of `--flag=value` when the flag sounds secret
 * (`--api-key=...`), and the argument after such a flag (`--token value`).
 */
export function redactArgs(args: readonly string[]): string[] {
  const redacted: string[] = [];
  let maskNext = false;
  for (const arg of args) {
    if (maskNext) {
      redacted.push(REDACTED);
      maskNext = false;
      continue;
    }
    const equals = arg.indexOf("=");
    if (arg.startsWith("-") && equals > 0 && secretWord.test(arg.slice(0, equals))) {
      redacted.push(`${arg.slice(0, equals + 1)}${REDACTED}`);
    } else {
      redacted.push(arg);
      maskNext = arg.startsWith("-") && equals < 0 && secretWord.test(arg);
    }
  }
  return redacted;
}

/** A URL without user info and with every query value masked. Unparseable URLs are masked whole. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return REDACTED;
  }
  parsed.username = "";
  parsed.password = "";
  const keys: string[] = [];
  parsed.searchParams.forEach((_value, key) => {
    keys.push(key);
  });
  for (const key of keys) parsed.searchParams.set(key, REDACTED);
  return parsed.toString();
}

function maskValues(record: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.keys(record).map((key) => [key, REDACTED]));
}

/** One backend's config with every secret masked (env and header values, URL user info). */
export function redactBackendConfig(backend: BackendConfig): Record<string, unknown> {
  const { name: _name, ...rest } = backend;
  if (rest.transport === "stdio") {
    return { ...rest, args: redactArgs(rest.args), env: maskValues(rest.env) };
  }
  return { ...rest, url: redactUrl(rest.url), headers: maskValues(rest.headers) };
}

/**
 * The config as `gateway_status` shows it: everything but secrets (DESIGN.md, Telemetry: tokens,
 * `env` values and `Authorization` headers never reach an event, a log line or `gateway_status`).
 */
export function redactGatewayConfig(config: GatewayConfig): Record<string, unknown> {
  return {
    namespaceSeparator: config.namespaceSeparator,
    maxNameLength: config.maxNameLength,
    conflictPolicy: config.conflictPolicy,
    pageSize: config.pageSize,
    telemetry: config.telemetry,
    profiles: config.profiles,
    mcpServers: Object.fromEntries(
      config.backends.map((backend) => [backend.name, redactBackendConfig(backend)]),
    ),
  };
}
