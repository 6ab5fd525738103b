import type { GatewayCluster, LostCall } from "./cluster.js";
import { replicaLostAnswer } from "./orphaned-calls.js";

/** Lost replicas `/readyz` lists, most recent first. */
export const MAX_LOST_REPLICAS_LISTED = 10;
/** Calls one failover log line names; past it, a count. */
export const MAX_CALLS_LOGGED = 10;

/** A replica found gone, and what this replica did about its calls (for `/readyz`). */
export interface LostReplicaReport {
  readonly replicaId: string;
  /** When this replica noticed (ISO 8601). */
  readonly lostAt: string;
  /** Its calls this replica answered with `ReplicaLost` on their streams. */
  readonly failedOver: number;
  /** Its calls taken off the list with no stream to answer on (plain JSON answers). */
  readonly unanswerable: number;
}

/** Answers the calls of replicas found gone (see {@link startFailover}). */
export interface Failover {
  /** The replicas found gone since start, most recent first (at most {@link MAX_LOST_REPLICAS_LISTED}). */
  recent(): readonly LostReplicaReport[];
  /** Stops listening. */
  close(): void;
}

/**
 * When the heartbeat finds a replica gone, takes the calls it was running (once across the
 * cluster: the replicas noticing it race, each call goes to one) and stores on each call's stream a
 * `ReplicaLost` error, which the client gets when it resumes that stream on any replica. A call
 * answered as plain JSON has no stream: it is taken off the list (its client saw its response
 * break). Logs one line per lost replica naming the calls failed over here (at most
 * {@link MAX_CALLS_LOGGED}).
 */
export function startFailover(
  cluster: GatewayCluster,
  options: { readonly onWarning: (message: string) => void; readonly now: () => number },
): Failover {
  const reports: LostReplicaReport[] = [];
  const stop =
    cluster.onReplicaGone?.((replicaId) => {
      void failOver(replicaId);
    }) ?? (() => {});

  async function failOver(replicaId: string): Promise<void> {
    const lostAt = new Date(options.now()).toISOString();
    let calls: readonly LostCall[] = [];
    try {
      calls = (await cluster.calls.failOver?.(replicaId, replicaLostAnswer)) ?? [];
    } catch (error) {
      options.onWarning(
        `cluster: replica ${replicaId} was lost; its calls could not be failed over: ${String(error)}`,
      );
    }
    const unanswerable = calls.filter((call) => call.streamId === undefined).length;
    reports.unshift({ replicaId, lostAt, failedOver: calls.length - unanswerable, unanswerable });
    reports.splice(MAX_LOST_REPLICAS_LISTED);
    options.onWarning(lostReplicaLine(replicaId, calls));
  }

  return {
    recent: () => reports.slice(),
    close: stop,
  };
}

/** The log line of one failover: the lost replica and the calls answered here, bounded. */
function lostReplicaLine(replicaId: string, calls: readonly LostCall[]): string {
  const head = `cluster: replica ${replicaId} was lost`;
  if (calls.length === 0) return `${head}; no call of it left to fail over here`;
  const named = calls.slice(0, MAX_CALLS_LOGGED).map((call) => {
    const where = call.streamId === undefined ? "no stream to answer on" : "-32017 on its stream";
    return `session ${call.sessionId} call ${JSON.stringify(call.id)} (${where})`;
  });
  const more =
    calls.length > MAX_CALLS_LOGGED ? `, and ${calls.length - MAX_CALLS_LOGGED} more` : "";
  return `${head}; failed over ${calls.length} call(s) here: ${named.join(", ")}${more}`;
}
