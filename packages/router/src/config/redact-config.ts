import { REDACTED, redact } from "@patchbay/telemetry";
import type { BackendConfig, GatewayConfig, TelemetryConfig } from "./gateway-config.js";

/** What replaces a secret in anything the gateway shows (the one of `@patchbay/telemetry`). */
export { REDACTED };

const secretWord = /token|secret|password|passwd|key|auth|credential|bearer|cookie/i;
// `Authorization: Bearer x`, `X-Api-Key: x` as one argument (`--header "..."`, curl style).
const headerArgument = /^\s*([A-Za-z0-9-]{1,64})\s*:\s*(.+)$/;
const optionName = /^-{0,2}[A-Za-z0-9_.-]{1,128}$/;
const schemePrefix = /^(?:bearer|basic|token)\s+/i;

/** The secrets in a backend's `args`, each as an index into `args` and the secret text. */
function argumentSecrets(args: readonly string[]): { index: number; value: string }[] {
  const found: { index: number; value: string }[] = [];
  let maskNext = false;
  args.forEach((arg, index) => {
    if (maskNext) {
      found.push({ index, value: arg });
      maskNext = false;
      return;
    }
    const equals = arg.indexOf("=");
    const header = headerArgument.exec(arg);
    const name = equals > 0 ? arg.slice(0, equals) : "";
    if (optionName.test(name) && secretWord.test(name)) {
      // `--api-key=...`, and `GITHUB_TOKEN=...` as in `docker run -e NAME=value`.
      found.push({ index, value: arg.slice(equals + 1) });
    } else if (header !== null && secretWord.test(header[1] as string)) {
      found.push({ index, value: (header[2] as string).trim() });
    } else {
      maskNext = arg.startsWith("-") && equals < 0 && secretWord.test(arg);
    }
  });
  return found;
}

/**
 * Masks the secrets of a backend's `args`: the value of `--flag=value` or `NAME=value` when the name
 * sounds secret (`--api-key=...`, `GITHUB_TOKEN=...`), the argument after such a flag (`--token
 * value`), the value of a header written as one argument (`Authorization: Bearer ...`), and whatever
 * the built-in rules of `redact` catch (URL credentials, bearer tokens).
 */
export function redactArgs(args: readonly string[]): string[] {
  const redacted = args.map((arg) => redact(arg));
  for (const { index, value } of argumentSecrets(args)) {
    const arg = args[index] as string;
    redacted[index] = `${arg.slice(0, arg.length - value.length)}${REDACTED}`;
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

/** The credentials a URL carries: user name, password, and secret-looking query values. */
function urlSecrets(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const found = [parsed.username, parsed.password];
  parsed.searchParams.forEach((value, key) => {
    if (secretWord.test(key)) found.push(value);
  });
  return found;
}

/** A secret and the forms it takes in text: percent-encoded, decoded, without its scheme. */
function variants(value: string): string[] {
  const forms = [value, value.replace(schemePrefix, "")];
  try {
    forms.push(decodeURIComponent(value));
  } catch {
    // Not percent-encoded: the value itself is enough.
  }
  forms.push(encodeURIComponent(value));
  return forms;
}

/**
 * Every literal secret of a config, for `Telemetry.addSecrets` (and so for every output the
 * telemetry's `redact` guards): the values that came from `${VAR}`, every `env` value, the values of
 * secret-looking headers, URL credentials (user info, secret-looking query values, also in `args`),
 * and secrets in `args` (see {@link redactArgs}), each also percent-encoded and decoded.
 */
export function collectConfigSecrets(config: GatewayConfig): string[] {
  const found: string[] = [...(config.secrets ?? [])];
  for (const backend of config.backends) {
    if (backend.transport === "stdio") {
      found.push(...Object.values(backend.env));
      found.push(...argumentSecrets(backend.args).map((secret) => secret.value));
      for (const arg of backend.args) if (arg.includes("://")) found.push(...urlSecrets(arg));
    } else {
      found.push(...urlSecrets(backend.url));
      for (const [name, value] of Object.entries(backend.headers)) {
        if (secretWord.test(name)) found.push(value);
      }
      if (backend.oauth?.clientSecret !== undefined) found.push(backend.oauth.clientSecret);
    }
  }
  const otlp = config.telemetry.otlp;
  if (otlp !== undefined) {
    found.push(...Object.values(otlp.headers ?? {}), ...urlSecrets(otlp.endpoint));
  }
  return [...new Set(found.flatMap(variants))].filter((value) => value.trim() !== "");
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
  const oauth =
    rest.oauth?.clientSecret === undefined ? rest.oauth : { ...rest.oauth, clientSecret: REDACTED };
  return {
    ...rest,
    url: redactUrl(rest.url),
    headers: maskValues(rest.headers),
    ...(oauth === undefined ? {} : { oauth }),
  };
}

/** The `telemetry` block with the OTLP headers' values and endpoint credentials masked. */
export function redactTelemetryConfig(telemetry: TelemetryConfig): TelemetryConfig {
  const { otlp } = telemetry;
  if (otlp === undefined) return telemetry;
  return {
    ...telemetry,
    otlp: {
      ...otlp,
      endpoint: redactUrl(otlp.endpoint),
      ...(otlp.headers === undefined ? {} : { headers: maskValues(otlp.headers) }),
    },
  };
}

/**
 * The config as `gateway_status` shows it: everything but secrets (SECURITY.md: tokens, `env`
 * values and `Authorization` headers never reach an event, a log line or `gateway_status`).
 */
export function redactGatewayConfig(config: GatewayConfig): Record<string, unknown> {
  return {
    namespaceSeparator: config.namespaceSeparator,
    maxNameLength: config.maxNameLength,
    conflictPolicy: config.conflictPolicy,
    pageSize: config.pageSize,
    telemetry: redactTelemetryConfig(config.telemetry),
    profiles: config.profiles,
    mcpServers: Object.fromEntries(
      config.backends.map((backend) => [backend.name, redactBackendConfig(backend)]),
    ),
  };
}
