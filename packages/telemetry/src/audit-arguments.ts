import { boundEventData } from "./bounded-text.js";
import type { Redact } from "./redact.js";

/** What an audit record says of a call's arguments. */
export const AUDIT_ARGUMENT_POLICIES = ["none", "names", "hashed", "full"] as const;

/**
 * `none`: nothing; `names`: the argument names, sorted; `hashed`: each argument's SHA-256 (hex) of
 * its canonical JSON; `full`: the arguments, redacted and bounded like an event's data.
 */
export type AuditArgumentPolicy = (typeof AUDIT_ARGUMENT_POLICIES)[number];

/** JSON with object keys sorted at every depth, so equal values always hash alike. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).sort();
    const members = keys.map(
      (key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`,
    );
    return `{${members.join(",")}}`;
  }
  // `undefined` and functions are not JSON: written as null, as inside an array.
  return JSON.stringify(value) ?? "null";
}

const encoder = new TextEncoder();

/** SHA-256 of UTF-8 text as 64 lowercase hex digits (Web Crypto: Node 20, browsers, workers). */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest("SHA-256", encoder.encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The arguments as the record is to carry them, taken when the call is decided (a snapshot). */
export type CapturedArguments =
  | { readonly kind: "names"; readonly names: readonly string[] }
  | { readonly kind: "canonical"; readonly canonical: Readonly<Record<string, string>> }
  | { readonly kind: "full"; readonly value: unknown };

/** Captures `args` under `policy` at once (cheap work only; hashing waits for the writer). */
export function captureArguments(
  args: unknown,
  policy: AuditArgumentPolicy,
  redact: Redact,
): CapturedArguments | undefined {
  if (policy === "none") return undefined;
  const object =
    args !== null && typeof args === "object" && !Array.isArray(args)
      ? (args as Record<string, unknown>)
      : {};
  if (policy === "names") return { kind: "names", names: Object.keys(object).sort() };
  if (policy === "hashed") {
    const canonical: Record<string, string> = {};
    for (const key of Object.keys(object).sort()) {
      Object.defineProperty(canonical, key, {
        value: canonicalJson(object[key]),
        enumerable: true,
      });
    }
    return { kind: "canonical", canonical };
  }
  return { kind: "full", value: boundEventData(redact(object)).data };
}

/** What the record's `arguments` field holds for captured arguments. */
export async function renderArguments(captured: CapturedArguments): Promise<unknown> {
  if (captured.kind === "names") return captured.names;
  if (captured.kind === "full") return captured.value;
  const hashed: Record<string, string> = {};
  for (const [key, canonical] of Object.entries(captured.canonical)) {
    Object.defineProperty(hashed, key, {
      value: `sha256:${await sha256Hex(canonical)}`,
      enumerable: true,
    });
  }
  return hashed;
}
