import type { GatewayConfig, ProfileConfig } from "../config/gateway-config.js";
import { type ScanFinding, scanDescriptions } from "../scanning/scan-description.js";
import { applyToolOverride, type ListedItem, mergeFixedArguments } from "./apply-tool-override.js";
import type { ScanMode, ToolOverride } from "./tool-override-schema.js";

/** The scan mode unless configured otherwise: findings are logged and shown, tools still served. */
export const DEFAULT_SCAN_MODE: ScanMode = "warn";

/** What the catalogue applies to each tool beyond namespacing: overrides and the scanner. */
export interface CatalogueShaping {
  /** A backend's override of its tool `name` (the backend's own name). */
  backendTool(backend: string, name: string): ToolOverride | undefined;
  /** The profile's override of the tool exposed (without the profile) as `exposedName`. */
  profileTool(exposedName: string): ToolOverride | undefined;
  readonly scan: ScanMode;
}

function ownEntry<Value>(
  record: Readonly<Record<string, Value>> | undefined,
  key: string,
): Value | undefined {
  // Own keys only: a tool named "constructor" must not find Object.prototype's.
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** The shaping `config` gives a session of `profile` (none: the default endpoint's). */
export function shapingOf(config: GatewayConfig, profile?: ProfileConfig): CatalogueShaping {
  const byBackend = new Map(
    config.backends.map((backend) => [backend.name, backend.overrides?.tools]),
  );
  const profileTools = profile?.overrides?.tools;
  return {
    backendTool: (backend, name) => ownEntry(byBackend.get(backend), name),
    profileTool: (exposedName) => ownEntry(profileTools, exposedName),
    scan: config.scan ?? DEFAULT_SCAN_MODE,
  };
}

/** A tool or prompt whose backend-written text the scanner flagged. */
export interface FlaggedItem {
  readonly kind: "tool" | "prompt";
  /** Its exposed name. */
  readonly name: string;
  readonly backend: string;
  /** `withheld`: not exposed (scan mode `withhold`); `warned`: exposed and reported. */
  readonly action: "warned" | "withheld";
  readonly findings: readonly ScanFinding[];
}

/** A tool or prompt as shaped for clients, with what the scanner found in its backend's text. */
export interface ShapedItem {
  readonly item: ListedItem;
  readonly findings: readonly ScanFinding[];
  readonly fixedArguments: Readonly<Record<string, unknown>> | undefined;
}

// Listings keep their items until the backend lists again: each is scanned once, not per session.
const scanned = new WeakMap<object, readonly ScanFinding[]>();

function findingsOf(item: ListedItem): readonly ScanFinding[] {
  let findings = scanned.get(item);
  if (findings === undefined) {
    findings = scanDescriptions(item);
    scanned.set(item, findings);
  }
  return findings;
}

/**
 * Whether a finding is in text clients still see: a replaced description, and the schema of a
 * fixed (hidden) parameter, no longer reach them. The operator's own text is not scanned.
 */
function stillShown(
  finding: ScanFinding,
  overrides: readonly (ToolOverride | undefined)[],
): boolean {
  if (finding.field === "description") {
    return !overrides.some((override) => override?.description !== undefined);
  }
  const fixed = overrides.flatMap((override) => Object.keys(override?.fixedArguments ?? {}));
  return !fixed.some((name) => finding.field.startsWith(`inputSchema.properties.${name}.`));
}

/** `item` under the backend's and then the profile's override, and what the scanner flags in it. */
export function shapeItem(
  item: ListedItem,
  overrides: readonly (ToolOverride | undefined)[],
  scan: ScanMode,
): ShapedItem {
  let shaped = item;
  for (const override of overrides) shaped = applyToolOverride(shaped, override);
  const findings =
    scan === "off" ? [] : findingsOf(item).filter((finding) => stillShown(finding, overrides));
  return { item: shaped, findings, fixedArguments: mergeFixedArguments(...overrides) };
}

/**
 * The flagged items as `gateway_status` shows them (a tool result a model reads): a withheld
 * item's findings lose their excerpts, so text withheld from clients never reaches them this way;
 * the log line, for the operator, keeps them.
 */
export function describeFlagged(flagged: readonly FlaggedItem[]): FlaggedItem[] {
  return flagged.map((item) =>
    item.action === "withheld"
      ? {
          ...item,
          findings: item.findings.map(({ rule, field }) => ({ rule, field, excerpt: "" })),
        }
      : item,
  );
}
