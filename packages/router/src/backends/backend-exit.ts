import type { TransportCloseEvent } from "@patchbay/jsonrpc-core";

/** What the close event of a backend's transport tells about why it ended. */
export interface TransportEnd {
  /** How its process ended (`exited with code 3`, `killed by SIGKILL`), when it had one that ran. */
  readonly processEnd: string | undefined;
  /** The error that ended the transport, when one did. */
  readonly error: string | undefined;
  /** The last lines a stdio backend wrote to stderr (bounded by its transport), oldest first. */
  readonly stderr: readonly string[];
}

/** Why a backend is down, as its `backend.crashed` event tells it. */
export interface BackendExit {
  readonly reason: string;
  readonly stderr: readonly string[];
}

/**
 * Reads a backend transport's close event: a child process's exit code or signal and its last
 * stderr lines (`StdioExitDetails`), and the error. Undefined when this side closed it: no crash.
 */
export function describeTransportEnd(event: TransportCloseEvent): TransportEnd | undefined {
  if (event.initiator === "local") return undefined;
  const details = event.details ?? {};
  return {
    processEnd: processEndOf(details),
    error: event.error?.message,
    stderr: stderrTailOf(details),
  };
}

/** Why a running backend went away: how its process ended, else its transport's error. */
export function crashOf(end: TransportEnd | undefined): BackendExit {
  return {
    reason: end?.processEnd ?? end?.error ?? "the connection closed",
    stderr: end?.stderr ?? [],
  };
}

function processEndOf(details: Readonly<Record<string, unknown>>): string | undefined {
  if (typeof details.signal === "string") return `killed by ${details.signal}`;
  if (typeof details.exitCode === "number") return `exited with code ${details.exitCode}`;
  return undefined;
}

function stderrTailOf(details: Readonly<Record<string, unknown>>): readonly string[] {
  const tail = details.stderrTail;
  return Array.isArray(tail) ? tail.filter((line): line is string => typeof line === "string") : [];
}
