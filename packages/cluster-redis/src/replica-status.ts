/** What a replica reports about itself at each heartbeat (counts only: no names, no addresses). */
export interface ReplicaStats {
  /** Client sessions it holds now. */
  readonly sessions: number;
  /** Client requests it received and has not answered yet. */
  readonly callsInFlight: number;
  /** Client calls it answered since it started. */
  readonly callsServed: number;
  /** Client calls answered in the last minute... */
  readonly callsPerMinute: number;
  /** ...and how many of them failed. */
  readonly errorsPerMinute: number;
}

/** A replica as the heartbeat set shows it. */
export interface ReplicaStatus {
  readonly replicaId: string;
  /** `live`: heartbeat fresh; `gone`: it stopped heartbeating (killed, lost); `left`: it stopped cleanly. */
  readonly state: "live" | "gone" | "left";
  /** When it joined (epoch ms, its own clock). */
  readonly startedAt: number;
  /** Its last heartbeat (epoch ms, its own clock). */
  readonly lastBeatAt: number;
  /** When it left cleanly, for `left`. */
  readonly leftAt?: number;
  /** Its counts at its last heartbeat, when it reports them. */
  readonly stats?: ReplicaStats;
}

/** The record a replica stores under its id in `<prefix>replica-status` (JSON). */
export interface StoredReplicaStatus {
  readonly startedAt: number;
  readonly beatAt: number;
  /** Expiry of the heartbeat: `beatAt + ttlMs`. */
  readonly expiresAt: number;
  readonly leftAt?: number;
  readonly stats?: ReplicaStats;
}

/** A stored record longer than this is ignored (another replica wrote it; it is never this big). */
export const MAX_STATUS_BYTES = 1024;
/** Replicas listed at most; past it the oldest gone ones are left out first. */
export const MAX_REPLICAS_LISTED = 100;

const statKeys = [
  "sessions",
  "callsInFlight",
  "callsServed",
  "callsPerMinute",
  "errorsPerMinute",
] as const;

const isCount = (value: unknown): value is number =>
  typeof value === "number" && Number.isFinite(value) && value >= 0;

/** Keeps the known counts of `stats` (whole, non-negative numbers), `undefined` when any is off. */
export function cleanStats(stats: unknown): ReplicaStats | undefined {
  if (typeof stats !== "object" || stats === null) return undefined;
  const record = stats as Record<string, unknown>;
  const clean: Record<string, number> = {};
  for (const key of statKeys) {
    const value = record[key];
    if (!isCount(value)) return undefined;
    clean[key] = Math.round(value);
  }
  return clean as unknown as ReplicaStats;
}

/** Parses one stored record; `undefined` for anything malformed or too long. */
export function parseStoredStatus(json: string): StoredReplicaStatus | undefined {
  if (json.length > MAX_STATUS_BYTES) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const { startedAt, beatAt, expiresAt, leftAt, stats } = value as Record<string, unknown>;
  if (!isCount(startedAt) || !isCount(beatAt) || !isCount(expiresAt)) return undefined;
  const clean = cleanStats(stats);
  return {
    startedAt,
    beatAt,
    expiresAt,
    ...(isCount(leftAt) ? { leftAt } : {}),
    ...(clean === undefined ? {} : { stats: clean }),
  };
}

/**
 * Decides each replica's state from the stored records: `left` when it said so, `live` when its
 * heartbeat has not expired and it still listens on its presence channel (`listening`; Redis drops
 * a killed process's subscription at once, well before the heartbeat expires), else `gone`.
 * Live replicas come first (by id), then the others, most recently seen first (callers list at
 * most {@link MAX_REPLICAS_LISTED}).
 */
export function replicaStatuses(
  stored: Readonly<Record<string, string>>,
  listening: (replicaId: string) => boolean,
  now: number,
): ReplicaStatus[] {
  const statuses: ReplicaStatus[] = [];
  for (const [replicaId, json] of Object.entries(stored)) {
    const record = parseStoredStatus(json);
    if (record === undefined) continue;
    const state =
      record.leftAt !== undefined
        ? "left"
        : record.expiresAt > now && listening(replicaId)
          ? "live"
          : "gone";
    statuses.push({
      replicaId,
      state,
      startedAt: record.startedAt,
      lastBeatAt: record.beatAt,
      ...(record.leftAt === undefined ? {} : { leftAt: record.leftAt }),
      ...(record.stats === undefined ? {} : { stats: record.stats }),
    });
  }
  const live = statuses
    .filter((status) => status.state === "live")
    .sort((a, b) => (a.replicaId < b.replicaId ? -1 : a.replicaId > b.replicaId ? 1 : 0));
  const others = statuses
    .filter((status) => status.state !== "live")
    .sort((a, b) => b.lastBeatAt - a.lastBeatAt);
  return [...live, ...others];
}

/** Ids whose record is older than `retainMs` past its expiry (or unreadable): to delete. */
export function expiredStatusIds(
  stored: Readonly<Record<string, string>>,
  retainMs: number,
  now: number,
): string[] {
  return Object.entries(stored)
    .filter(([, json]) => {
      const record = parseStoredStatus(json);
      if (record === undefined) return true;
      return Math.max(record.expiresAt, record.leftAt ?? 0) + retainMs < now;
    })
    .map(([replicaId]) => replicaId);
}
