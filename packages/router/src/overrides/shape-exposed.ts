import type { ConflictPolicy, ConflictReport } from "../catalogue/conflict.js";
import type { ListedItem } from "./apply-tool-override.js";
import {
  type CatalogueShaping,
  type FlaggedItem,
  type ShapedItem,
  shapeItem,
} from "./catalogue-shaping.js";
import type { ToolOverride } from "./tool-override-schema.js";

/** One tool or prompt the catalogue is about to expose, after namespacing and conflicts. */
export interface ExposedCandidate {
  readonly kind: "tool" | "prompt";
  /** As the backend lists it. */
  readonly item: ListedItem;
  /** The backend's override of it, if any. */
  readonly own: ToolOverride | undefined;
  /** The name it has won so far (namespaced, the backend's rename applied). */
  readonly exposedName: string;
  readonly backend: string;
}

/** What every candidate of one list is shaped with. */
export interface ShapingContext {
  readonly shaping: CatalogueShaping | undefined;
  /** Exposed name -> who holds it (`gateway` for the gateway's own tools). */
  readonly claimants: Map<string, string>;
  readonly conflictPolicy: ConflictPolicy;
  readonly reports: { conflicts: ConflictReport[]; flagged: FlaggedItem[] };
}

/** Where an exposed tool or prompt leads (the catalogue's `CatalogueEntry`). */
export interface ShapedEntry {
  readonly backend: string;
  readonly name: string;
  readonly exposedName: string;
  readonly fixedArguments?: Readonly<Record<string, unknown>>;
}

/**
 * The profile's rename, the overrides and the scanner applied to a candidate: the item as clients
 * see it and where its name leads, or undefined when it is not exposed (a profile's rename onto a
 * taken name, reported as a conflict; a description withheld by the scanner, reported as flagged).
 */
export function shapeExposed(
  candidate: ExposedCandidate,
  context: ShapingContext,
): { item: ListedItem; entry: ShapedEntry } | undefined {
  const { kind, item, own, backend } = candidate;
  const { shaping, claimants, reports } = context;
  let exposedName = candidate.exposedName;
  const profile = kind === "tool" ? shaping?.profileTool(exposedName) : undefined;
  if (profile?.name !== undefined && profile.name !== exposedName) {
    const holder = claimants.get(profile.name);
    if (holder !== undefined) {
      reports.conflicts.push({
        kind: "tool",
        name: profile.name,
        claimants: [holder, backend],
        winner: holder,
        resolution: context.conflictPolicy === "error" ? "rejected" : "dropped",
        message: `tool "${exposedName}" of ${backend} is renamed "${profile.name}" by its profile, but ${holder} already exposes that name; the renamed tool is not exposed.`,
      });
      return undefined;
    }
    claimants.set(profile.name, backend);
    exposedName = profile.name;
  }
  const shaped: ShapedItem = shapeItem(item, [own, profile], shaping?.scan ?? "off");
  if (shaped.findings.length > 0) {
    const action = shaping?.scan === "withhold" ? "withheld" : "warned";
    reports.flagged.push({ kind, name: exposedName, backend, action, findings: shaped.findings });
    if (action === "withheld") return undefined;
  }
  const { fixedArguments } = shaped;
  const entry = { backend, name: item.name, exposedName };
  return {
    item: shaped.item,
    entry: fixedArguments === undefined ? entry : { ...entry, fixedArguments },
  };
}
