import { methods as methods20241105 } from "../2024-11-05/methods.js";
import { methods as methods20250326 } from "../2025-03-26/methods.js";
import { methods as methods20250618 } from "../2025-06-18/methods.js";
import { methods as methods20251125 } from "../2025-11-25/methods.js";
import { methods as methods20260728 } from "../2026-07-28/methods.js";
import type { ProtocolVersion } from "../versions.js";
import type { McpMethodDescriptor } from "./method-descriptor.js";

/** The descriptors of every revision, keyed by revision then method name. */
export const REVISION_METHODS = {
  "2024-11-05": methods20241105,
  "2025-03-26": methods20250326,
  "2025-06-18": methods20250618,
  "2025-11-25": methods20251125,
  "2026-07-28": methods20260728,
} as const satisfies Record<ProtocolVersion, Record<string, McpMethodDescriptor>>;

/** The method names a revision defines. */
export type RevisionMethod<Revision extends ProtocolVersion> =
  keyof (typeof REVISION_METHODS)[Revision];

/** The descriptor of `method` in `revision`, or undefined when that revision does not define it. */
export function getMethodDescriptor(
  revision: ProtocolVersion,
  method: string,
): McpMethodDescriptor | undefined {
  const table: Record<string, McpMethodDescriptor> = REVISION_METHODS[revision];
  return Object.hasOwn(table, method) ? table[method] : undefined;
}
