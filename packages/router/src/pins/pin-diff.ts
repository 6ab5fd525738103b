import { canonicalJson } from "./canonical-json.js";

/** Longest text shown for one side of one field. */
export const MAX_FIELD_TEXT = 400;
/** Longest whole diff. */
export const MAX_DIFF_LENGTH = 2_000;

/** How a definition changed: the fields that differ and a readable line diff of them. */
export interface PinChange {
  readonly fields: readonly string[];
  readonly diff: string;
}

function textOf(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  return JSON.stringify(JSON.parse(canonicalJson(value)), null, 2);
}

function bounded(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… (${text.length - limit} more)`;
}

/** The lines of `before` and `after` that differ, once common leading and trailing lines are cut. */
function lineDiff(before: string, after: string): string[] {
  const old = before === "" ? [] : before.split("\n");
  const next = after === "" ? [] : after.split("\n");
  let start = 0;
  while (start < old.length && start < next.length && old[start] === next[start]) start++;
  let oldEnd = old.length;
  let nextEnd = next.length;
  while (oldEnd > start && nextEnd > start && old[oldEnd - 1] === next[nextEnd - 1]) {
    oldEnd--;
    nextEnd--;
  }
  return [
    ...old.slice(start, oldEnd).map((line) => `- ${line}`),
    ...next.slice(start, nextEnd).map((line) => `+ ${line}`),
  ];
}

/** Which fields of two definitions differ, with old and new text of each (bounded in length). */
export function describePinChange(
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
): PinChange {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const fields = keys.filter((key) => canonicalJson(before[key]) !== canonicalJson(after[key]));
  const parts = fields.map((field) => {
    const lines = lineDiff(
      bounded(textOf(before[field]), MAX_FIELD_TEXT),
      bounded(textOf(after[field]), MAX_FIELD_TEXT),
    );
    return [`${field}:`, ...lines].join("\n");
  });
  return { fields, diff: bounded(parts.join("\n"), MAX_DIFF_LENGTH) };
}
