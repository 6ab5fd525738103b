import type { ProgressToken } from "../shared/primitives.js";
import { PROGRESS_TOKEN_META_KEY } from "./meta-keys.js";

/** Params or a result that may carry `_meta`. */
export type WithMeta = { _meta?: Record<string, unknown> | undefined; [key: string]: unknown };

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** The `_meta` object of params or a result, or undefined. */
export function getMeta(target: unknown): Record<string, unknown> | undefined {
  return asRecord(asRecord(target)?._meta);
}

/** One `_meta` value of params or a result. */
export function getMetaValue(target: unknown, key: string): unknown {
  return getMeta(target)?.[key];
}

/**
 * A copy of `target` (params or a result; undefined means none yet) whose `_meta` has `entries`
 * merged in; an entry whose value is undefined removes that key. The input is not modified.
 */
export function withMeta<Target extends Record<string, unknown> | undefined>(
  target: Target,
  entries: Record<string, unknown>,
): NonNullable<Target> & { _meta: Record<string, unknown> } {
  const base = (target ?? {}) as Record<string, unknown>;
  const meta: Record<string, unknown> = { ...getMeta(base) };
  for (const [key, value] of Object.entries(entries)) {
    if (value === undefined) delete meta[key];
    else meta[key] = value;
  }
  return { ...base, _meta: meta } as NonNullable<Target> & { _meta: Record<string, unknown> };
}

/** The request's `_meta.progressToken` (a string or number), or undefined. */
export function getProgressToken(params: unknown): ProgressToken | undefined {
  const token = getMetaValue(params, PROGRESS_TOKEN_META_KEY);
  return typeof token === "string" || typeof token === "number" ? token : undefined;
}

/** A copy of `params` carrying `_meta.progressToken`. */
export function withProgressToken<Params extends Record<string, unknown> | undefined>(
  params: Params,
  token: ProgressToken,
) {
  return withMeta(params, { [PROGRESS_TOKEN_META_KEY]: token });
}
