import type { BackendCredentials } from "./credentials-config-schema.js";
import type { BackendConfig } from "./gateway-config.js";

/** A slot name: what the credential store keys one value of a backend by. */
const SLOT_PATTERN = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

/** `{{slot}}` inside a header template. */
const TEMPLATE_SLOT = /\{\{([^{}]*)\}\}/g;

/** The slot names a header template uses, in order (`"Bearer {{token}}"` → `["token"]`). */
export function templateSlots(template: string): string[] {
  return [...template.matchAll(TEMPLATE_SLOT)].map((match) => (match[1] ?? "").trim());
}

/**
 * The slot of a per-principal backend with an `oauth` block: the principal's access token, which
 * the proxy stores once the principal connected (with `OAUTH_SLOTS`' other values beside it).
 */
export const OAUTH_ACCESS_TOKEN_SLOT = "access_token";

/** True for a per-principal backend that each principal connects to with OAuth. */
export function connectsPerPrincipal(backend: BackendConfig): boolean {
  return (
    backend.isolation === "per-principal" &&
    backend.transport !== "stdio" &&
    backend.oauth !== undefined
  );
}

/** True for a per-principal backend whose principals store their own values on a link. */
export function setByUser(backend: BackendConfig): boolean {
  return backend.isolation === "per-principal" && backend.credentials?.setByUser === true;
}

/** The slot names of a backend's `credentials` (none for an operator's backend). */
export function credentialSlotsOf(backend: BackendConfig): string[] {
  if (connectsPerPrincipal(backend)) return [OAUTH_ACCESS_TOKEN_SLOT];
  const credentials = backend.credentials;
  if (credentials === undefined) return [];
  const slots = [
    ...Object.values(credentials.headers ?? {}).flatMap(templateSlots),
    ...(credentials.env ?? []),
  ];
  return [...new Set(slots)];
}

/** What is wrong with a backend's `isolation` and `credentials` together, one message each. */
export function credentialsIssues(
  isolation: string | undefined,
  credentials: BackendCredentials | undefined,
  kind: "command" | "url",
  oauth = false,
): { keys: string[]; message: string }[] {
  const perPrincipal = isolation === "per-principal";
  if (oauth && perPrincipal) {
    return credentials === undefined
      ? []
      : [
          {
            keys: ["credentials"],
            message:
              "a per-principal backend with an oauth block sends each principal's own access token: remove credentials",
          },
        ];
  }
  if (credentials === undefined) {
    return perPrincipal
      ? [{ keys: ["credentials"], message: 'isolation "per-principal" needs "credentials"' }]
      : [];
  }
  if (!perPrincipal) {
    return [{ keys: ["credentials"], message: 'credentials need isolation "per-principal"' }];
  }
  const issues: { keys: string[]; message: string }[] = [];
  if (kind === "command" && credentials.headers !== undefined) {
    issues.push({
      keys: ["credentials", "headers"],
      message: 'headers apply to a "url" backend only',
    });
  }
  if (kind === "url" && credentials.env !== undefined) {
    issues.push({
      keys: ["credentials", "env"],
      message: 'env applies to a "command" backend only',
    });
  }
  for (const [header, template] of Object.entries(credentials.headers ?? {})) {
    const slots = templateSlots(template);
    if (slots.length === 0 || slots.some((slot) => !SLOT_PATTERN.test(slot))) {
      issues.push({
        keys: ["credentials", "headers", header],
        message: "expected a template naming at least one slot, as {{token}} ([A-Za-z0-9_.-])",
      });
    }
  }
  if (credentials.headers === undefined && credentials.env === undefined) {
    issues.push({ keys: ["credentials"], message: 'expected "headers" or "env"' });
  }
  return issues;
}

/**
 * `config` as its transport opens it for one principal: header templates filled and env slots set
 * from `values` (slot -> value). The backend itself keeps the config without them, so that no
 * status or event shows a value.
 */
export function withCredentialValues(
  config: BackendConfig,
  values: Readonly<Record<string, string>>,
): BackendConfig {
  const credentials = config.credentials;
  if (credentials === undefined) return config;
  const slotValue = (slot: string) => values[slot] ?? "";
  if (config.transport === "stdio") {
    const env = { ...config.env };
    for (const name of credentials.env ?? []) env[name] = slotValue(name);
    return { ...config, env };
  }
  const headers = { ...config.headers };
  for (const [header, template] of Object.entries(credentials.headers ?? {})) {
    headers[header] = template.replace(TEMPLATE_SLOT, (_, slot: string) => slotValue(slot.trim()));
  }
  return { ...config, headers };
}
