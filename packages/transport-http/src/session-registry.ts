import { HTTP_ERROR_CODE, writeJsonError } from "./http-answers.js";
import type { HttpResponseSink } from "./http-io.js";

/** The default most open sessions of one handler. */
export const DEFAULT_MAX_SESSIONS = 1000;
/** The default most open sessions of one identity (the `authenticate` result). */
export const DEFAULT_MAX_SESSIONS_PER_IDENTITY = 100;

/** Limits of a {@link SessionRegistry}. */
export interface SessionLimits {
  /** Most open sessions in all. */
  readonly maxSessions: number;
  /** Most open sessions of one identity; sessions without identity count only towards the total. */
  readonly maxSessionsPerIdentity: number;
  /** The `Retry-After` advice (seconds) of the 503 answer when a limit is reached. */
  readonly retryAfterSeconds: number;
}

interface Entry<T> {
  readonly transport: T;
  readonly identity: string | undefined;
}

/**
 * The open sessions of one HTTP handler, each bound to the identity that created it: a lookup by
 * another identity finds nothing (the caller answers 404, as for an unknown session), and the number
 * of sessions is bounded in all and per identity.
 */
export class SessionRegistry<T> {
  private readonly limits: SessionLimits;
  private readonly entries = new Map<string, Entry<T>>();
  private readonly perIdentity = new Map<string, number>();

  constructor(limits: SessionLimits) {
    this.limits = limits;
  }

  /** The number of open sessions. */
  get size(): number {
    return this.entries.size;
  }

  /** Every open session's transport. */
  transports(): T[] {
    return [...this.entries.values()].map((entry) => entry.transport);
  }

  /** The session `sessionId` if `identity` created it; `undefined` otherwise. */
  find(sessionId: string, identity: string | undefined): T | undefined {
    const entry = this.entries.get(sessionId);
    return entry !== undefined && entry.identity === identity ? entry.transport : undefined;
  }

  /** The session `sessionId`, whoever created it (for the application, never for a request). */
  get(sessionId: string): T | undefined {
    return this.entries.get(sessionId)?.transport;
  }

  /**
   * Answers 503 with `Retry-After` and returns false when a new session of `identity` would pass a
   * limit; true when there is room.
   */
  admit(identity: string | undefined, response: HttpResponseSink): boolean {
    const { maxSessions, maxSessionsPerIdentity, retryAfterSeconds } = this.limits;
    let refusal: string | undefined;
    if (this.entries.size >= maxSessions) {
      refusal = `${maxSessions} sessions are open, the limit (maxSessions)`;
    } else if (
      identity !== undefined &&
      (this.perIdentity.get(identity) ?? 0) >= maxSessionsPerIdentity
    ) {
      refusal = `this user has ${maxSessionsPerIdentity} open sessions, the limit (maxSessionsPerIdentity)`;
    }
    if (refusal === undefined) return true;
    writeJsonError(response, 503, HTTP_ERROR_CODE, `Service Unavailable: ${refusal}`, {
      "retry-after": String(retryAfterSeconds),
    });
    return false;
  }

  /** Records a new session. */
  add(sessionId: string, transport: T, identity: string | undefined): void {
    this.entries.set(sessionId, { transport, identity });
    if (identity !== undefined) {
      this.perIdentity.set(identity, (this.perIdentity.get(identity) ?? 0) + 1);
    }
  }

  /** Forgets an ended session. */
  delete(sessionId: string): void {
    const entry = this.entries.get(sessionId);
    if (entry === undefined) return;
    this.entries.delete(sessionId);
    const identity = entry.identity;
    if (identity === undefined) return;
    const count = (this.perIdentity.get(identity) ?? 1) - 1;
    if (count > 0) this.perIdentity.set(identity, count);
    else this.perIdentity.delete(identity);
  }
}
