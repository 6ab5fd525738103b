import {
  type AuditArgumentPolicy,
  type CapturedArguments,
  captureArguments,
  renderArguments,
} from "./audit-arguments.js";
import { redact as builtInRedact, type Redact } from "./redact.js";

/** How a decision ended. */
export type AuditOutcome = "allowed" | "denied" | "error" | "tool_error" | "cancelled";

/** One line of the audit log (the schema the telemetry README documents). */
export interface AuditRecord {
  /** When the decision was made (the call's end for a call that ran), ISO 8601 in UTC. */
  readonly time: string;
  /** Who asked: a token's name, `<issuer>#<subject>` for OAuth, `anonymous` without auth. */
  readonly principal: string;
  /** The router session (absent for a denial before any session, at the HTTP front). */
  readonly session?: string;
  /** The proxy profile the session uses, if any. */
  readonly profile?: string;
  /** The JSON-RPC method (`tools/call`), or the HTTP request's for a front denial. */
  readonly method: string;
  /** The tool's exposed name, when the request names one. */
  readonly tool?: string;
  /** The backend that owns the tool (`gateway` for the gateway's own tools), once known. */
  readonly backend?: string;
  readonly outcome: AuditOutcome;
  /** Why it was denied (`tool_not_allowed`, `unknown_tool`, `rate_limited`, `auth`, …). */
  readonly reason?: string;
  /** From the request's arrival to its answer, in milliseconds. */
  readonly durationMs: number;
  /** The arguments as the policy says (absent with `none`). */
  readonly arguments?: unknown;
}

/**
 * What a decision point tells the audit log: a record without `time`, which the log adds, and with
 * the call's raw `arguments`, which it captures at once under the policy.
 */
export type AuditDecision = Omit<AuditRecord, "time">;

/** Where audit records go: a rotated file (`createJsonLinesFile`) or a stream. */
export interface AuditSink {
  /** Writes records in order; the next batch waits until this one settles. */
  write(records: readonly AuditRecord[]): Promise<void>;
}

/** Options of {@link createAuditLog}. */
export interface AuditLogOptions {
  readonly sink: AuditSink;
  /** What records say of arguments (default `names`). */
  readonly arguments?: AuditArgumentPolicy;
  /** Masks secrets in `full` arguments (default: the built-in rules). */
  readonly redact?: Redact;
  /** Milliseconds since the epoch (default `Date.now`). */
  readonly now?: () => number;
  /**
   * Told once about the first failed write (the operational log, not the call path); later
   * failures are only counted in `failed`.
   */
  readonly onError?: (error: unknown) => void;
}

/** The audit log: one record per decision, written in order off the call path. */
export interface AuditLog {
  readonly policy: AuditArgumentPolicy;
  /** Milliseconds since the epoch, from the log's clock (decision points time calls with it). */
  now(): number;
  /** Queues a record; returns at once and never throws. */
  record(decision: AuditDecision): void;
  /** Records lost to failed writes. */
  readonly failed: number;
  /** Resolves once every record queued so far was written (or failed). */
  flush(): Promise<void>;
}

interface Pending {
  readonly record: Omit<AuditRecord, "arguments">;
  readonly captured: CapturedArguments | undefined;
}

/** Creates an audit log writing to `options.sink`. */
export function createAuditLog(options: AuditLogOptions): AuditLog {
  const policy = options.arguments ?? "names";
  const redact = options.redact ?? builtInRedact;
  const now = options.now ?? Date.now;
  let queue: Pending[] = [];
  let draining: Promise<void> | undefined;
  let failed = 0;
  let reported = false;

  const drain = async (): Promise<void> => {
    // Never inside `record`: the caller's turn finishes first.
    await Promise.resolve();
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      try {
        const records = await Promise.all(batch.map(render));
        await options.sink.write(records);
      } catch (error) {
        failed += batch.length;
        if (!reported) {
          reported = true;
          options.onError?.(error);
        }
      }
    }
    draining = undefined;
  };

  return {
    policy,
    now,
    record(decision) {
      const { arguments: args, ...rest } = decision;
      const captured = captureArguments(args, policy, redact);
      queue.push({ record: { time: new Date(now()).toISOString(), ...rest }, captured });
      draining ??= drain();
    },
    get failed() {
      return failed;
    },
    async flush() {
      while (draining !== undefined) await draining;
    },
  };
}

async function render(pending: Pending): Promise<AuditRecord> {
  if (pending.captured === undefined) return pending.record;
  return { ...pending.record, arguments: await renderArguments(pending.captured) };
}

/**
 * An {@link AuditSink} writing one JSON line per record to a stream (the proxy's stdout, say):
 * `write` resolves once the text is handed over.
 */
export function createAuditStreamSink(write: (text: string) => Promise<void>): AuditSink {
  return {
    write: (records) => write(records.map((record) => `${JSON.stringify(record)}\n`).join("")),
  };
}
