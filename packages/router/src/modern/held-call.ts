import type { ServerToClientMethod } from "../backends/backend-events.js";

/** One question a backend asked during a held call, waiting for the client's answer. */
export interface PendingInput {
  readonly method: ServerToClientMethod;
  readonly params: Record<string, unknown>;
  /** Answers the backend's request. */
  readonly resolve: (answer: unknown) => void;
  /** Fails the backend's request. */
  readonly reject: (error: Error) => void;
}

/** How a forwarded call ended. */
export type CallOutcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: unknown };

/** The modern request a call is serving right now (its first request or one retry). */
export interface ActiveRound {
  /** Sends a notification on the request's response (progress, log). */
  notify(method: string, params: Record<string, unknown>): void;
  /** The client's progress token for this round, if it asked for progress. */
  readonly progressToken: string | number | undefined;
  /** The log level the round's `_meta` asked for (no logs without one, MCP 2026-07-28). */
  readonly logLevel: string | undefined;
  /** The capabilities the round's `_meta` declared. */
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
}

/**
 * A call forwarded for a modern client, in the legacy session behind the modern front. While the
 * backend waits for answers (its sampling, elicitation or roots requests), the call is "held": its
 * questions went to the client as an `input_required` result, and a retry with the answers resumes
 * it. It ends when the backend answers, when the client gives up, or at its deadline.
 */
export class HeldCall {
  /** Gateway-wide key named by the sealed request state. */
  readonly key: string;
  readonly method: string;
  readonly target: string;
  readonly caller: string;
  /** Aborting it cancels the backend call. */
  readonly abort = new AbortController();
  /** Questions not answered yet, by input key. */
  readonly pending = new Map<string, PendingInput>();
  /** The round the last issued request state names. */
  round = 0;
  /** The request that serves (or last served) the call. */
  current: ActiveRound;
  /** False while the call waits for a retry (its last request was answered input_required). */
  live = true;
  /** The id the legacy session behind the front knows the call by, once sent. */
  internalId: string | number | undefined;
  /** The deadline timer while it waits for a retry. */
  deadline: unknown;
  /** Answers the first request carried before any question was asked, by input key. */
  earlyResponses: Record<string, unknown> | undefined;
  #outcome: CallOutcome | undefined;
  #inputCount = 0;
  #wake: (() => void) | undefined;

  constructor(
    key: string,
    request: { method: string; target: string; caller: string },
    round: ActiveRound,
  ) {
    this.key = key;
    this.current = round;
    this.method = request.method;
    this.target = request.target;
    this.caller = request.caller;
  }

  /** How the backend call ended, once it did. */
  get outcome(): CallOutcome | undefined {
    return this.#outcome;
  }

  /** Records the backend call's end. */
  settle(outcome: CallOutcome): void {
    this.#outcome ??= outcome;
    this.#wakeUp();
  }

  /** Records a backend question under a key of its own choosing when valid and free. */
  ask(
    method: ServerToClientMethod,
    params: Record<string, unknown>,
    wanted: unknown,
  ): { key: string; answer: Promise<unknown> } {
    let key = "";
    const answer = new Promise<unknown>((resolve, reject) => {
      this.#inputCount += 1;
      key =
        typeof wanted === "string" &&
        wanted.length > 0 &&
        wanted.length <= MAX_INPUT_KEY_LENGTH &&
        !this.pending.has(wanted)
          ? wanted
          : `${method.split("/")[0]}-${this.#inputCount}`;
      this.pending.set(key, { method, params, resolve, reject });
      this.#wakeUp();
    });
    return { key, answer };
  }

  /** Resolves when the call settles or a question arrives (or at once when either already has). */
  changed(): Promise<void> {
    if (this.#outcome !== undefined || this.pending.size > 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.#wake = resolve;
    });
  }

  /** Ends the call: the backend call is cancelled and its open questions fail with `reason`. */
  release(reason: Error): void {
    for (const input of this.pending.values()) input.reject(reason);
    this.pending.clear();
    this.abort.abort(reason);
    this.settle({ ok: false, error: reason });
  }

  #wakeUp(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}

/** The longest input key a backend may choose through `_meta["io.patchbay/input-key"]`. */
export const MAX_INPUT_KEY_LENGTH = 128;
