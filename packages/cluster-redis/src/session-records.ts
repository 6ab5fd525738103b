import type { SharedSessionRecord } from "@patchbay/http-gateway";
import type { Redis } from "ioredis";
import type { ClusterSeal } from "./cluster-seal.js";

/** A shared session as an operator may see it: never its id, the owning token's name only. */
export interface SessionSummary {
  /** `clientInfo.name` from its `initialize`, when it sent one. */
  readonly client?: string;
  readonly clientVersion?: string;
  /** The profile, `""` for the default endpoint. */
  readonly profile: string;
  /** The name of the token that created it. */
  readonly owner: string;
  readonly protocolVersion: string;
  /** When a replica last saw a request of it (epoch ms). */
  readonly lastActivityAt: number;
}

/** The sessions found, and whether the limits stopped the listing early. */
export interface SessionListing {
  readonly sessions: readonly SessionSummary[];
  readonly truncated: boolean;
}

/** Options of {@link listSessionRecords}. */
export interface SessionListingOptions {
  /** Sessions listed at most. Default 200. */
  readonly maxSessions?: number;
  /** `SCAN` calls at most (each looks at about 500 keys). Default 20. */
  readonly maxScans?: number;
  /** Names longer than this are cut (clients choose them). Default 200. */
  readonly maxNameLength?: number;
}

const escapeGlob = (text: string) => text.replace(/[*?[\]\\]/g, "\\$&");

function summaryOf(
  json: string | null,
  lastActivity: string | null,
  cut: (value: unknown) => string | undefined,
): SessionSummary | undefined {
  if (json === null) return undefined;
  let record: Partial<SharedSessionRecord>;
  try {
    record = JSON.parse(json) as Partial<SharedSessionRecord>;
  } catch {
    return undefined;
  }
  const info = record.initializeParams?.clientInfo as
    | { name?: unknown; version?: unknown }
    | undefined;
  const client = cut(info?.name);
  const clientVersion = cut(info?.version);
  const lastActivityAt = Number(lastActivity ?? record.lastActivityAt);
  return {
    ...(client === undefined ? {} : { client }),
    ...(clientVersion === undefined ? {} : { clientVersion }),
    profile: cut(record.profile) ?? "",
    owner: cut(record.owner) ?? "",
    protocolVersion: cut(record.protocolVersion) ?? "",
    lastActivityAt: Number.isFinite(lastActivityAt) ? lastActivityAt : 0,
  };
}

/**
 * Lists the session records of every replica (`<prefix>session:*`, by `SCAN`, so Redis is never
 * blocked), most recently active first, within the limits: for a dashboard, not for a hot path.
 */
export async function listSessionRecords(
  client: Redis,
  prefix: string,
  seal: ClusterSeal,
  options: SessionListingOptions = {},
): Promise<SessionListing> {
  const maxSessions = options.maxSessions ?? 200;
  const maxScans = options.maxScans ?? 20;
  const maxNameLength = options.maxNameLength ?? 200;
  const cut = (value: unknown) =>
    typeof value === "string" ? value.slice(0, maxNameLength) : undefined;
  const pattern = `${escapeGlob(prefix)}session:*`;
  const keys = new Set<string>();
  let cursor = "0";
  let scans = 0;
  do {
    const [next, found] = await client.scan(cursor, "MATCH", pattern, "COUNT", 500);
    cursor = next;
    scans += 1;
    for (const key of found) keys.add(key);
  } while (cursor !== "0" && scans < maxScans && keys.size < maxSessions);
  const truncated = cursor !== "0" || keys.size > maxSessions;
  const chosen = [...keys].slice(0, maxSessions);
  const pipeline = client.pipeline();
  for (const key of chosen) pipeline.hmget(key, "record", "lastActivityAt");
  const results = chosen.length === 0 ? [] : ((await pipeline.exec()) ?? []);
  const sessions: SessionSummary[] = [];
  for (const [index, [error, fields]] of results.entries()) {
    if (error !== null) continue;
    const [sealed, lastActivity] = fields as [string | null, string | null];
    // A record not sealed with the cluster secret is not listed (nor ever adopted).
    const json =
      sealed === null ? null : (seal.openRecord(chosen[index] as string, sealed) ?? null);
    const summary = summaryOf(json, lastActivity, cut);
    if (summary !== undefined) sessions.push(summary);
  }
  sessions.sort((a, b) => b.lastActivityAt - a.lastActivityAt);
  return { sessions, truncated };
}
