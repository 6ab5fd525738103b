import {
  JSONRPCError,
  type JSONRPCId,
  RequestIdMap,
  type RequestOptions,
} from "@patchbay/jsonrpc-core";
import { createMissingRequiredClientCapabilityError } from "@patchbay/mcp-types";
import { CLIENT_CAPABILITY_OF, type ServerToClientMethod } from "../backends/backend-events.js";
import { INPUT_KEY_META_KEY } from "../backends/modern-backend.js";
import { GatewayErrorCode } from "../errors/gateway-error-code.js";
import { INVALID_PARAMS } from "../errors/map-error.js";
import { type ActiveRound, HeldCall } from "./held-call.js";
import { HeldCallStateCodec } from "./held-call-state.js";
import { answerFromEarlyResponses, applyInputResponses } from "./input-answers.js";
import type { ModernSettings } from "./modern-settings.js";
import { declaresUrlElicitation } from "./url-elicitation.js";

/** Sends a request on the legacy session behind the front. */
export type SessionRequest = (
  method: string,
  params: Record<string, unknown>,
  options: RequestOptions,
) => Promise<unknown>;

/**
 * The MRTR half of a modern front (MCP 2026-07-28 "multi round-trip requests", bridged to legacy
 * backends): a `tools/call`, `prompts/get` or `resources/read` is sent on to the legacy session; when
 * the backend asks the client something during it, the call is held and the client gets an
 * `input_required` result with the questions and a sealed `requestState` naming the held call and
 * round. The client's retry with `inputResponses` answers the backend's requests and resumes the
 * call. A held call waits at most `heldCallTimeoutMs` for the retry; then, or when the client
 * cancels, the backend call is cancelled. At most `maxHeldCalls` wait per caller at once.
 */
export class HeldCalls {
  readonly #caller: string;
  readonly #settings: ModernSettings;
  readonly #request: SessionRequest;
  readonly #codec: HeldCallStateCodec;
  readonly #byKey = new Map<string, HeldCall>();
  // Not a `Map`: an entry per held call, and a long-lived `Map` used so promotes what it held.
  readonly #byInternalId = new RequestIdMap<HeldCall>();
  /** What the cluster's ledger counts this caller's calls under (caller and profile). */
  readonly #scope: string;
  /** Keys of the calls recorded in the cluster's ledger. */
  readonly #ledgered = new Set<string>();

  constructor(
    caller: string,
    settings: ModernSettings,
    request: SessionRequest,
    scope: string = caller,
  ) {
    this.#caller = caller;
    this.#settings = settings;
    this.#request = request;
    this.#codec = settings.codec ?? new HeldCallStateCodec();
    this.#scope = scope;
  }

  /** Calls waiting for a retry now. */
  get waiting(): number {
    let count = 0;
    for (const held of this.#byKey.values()) if (!held.live) count += 1;
    return count;
  }

  /** The request serving a call now, by the id the legacy session knows it by. */
  liveRound(internalId: JSONRPCId | undefined): ActiveRound | undefined {
    const held = internalId === undefined ? undefined : this.#byInternalId.get(internalId);
    return held?.live === true ? held.current : undefined;
  }

  /** Serves one call or one retry of a held call. */
  async call(
    method: string,
    target: string,
    params: Record<string, unknown>,
    request: { signal: AbortSignal; round: ActiveRound },
  ): Promise<unknown> {
    const held =
      params.requestState === undefined
        ? this.#start(method, target, params, request.round)
        : await this.#resume(method, target, params, request.round);
    const onAbort = () => this.#end(held, new Error("the client cancelled the request"));
    if (request.signal.aborted) onAbort();
    request.signal.addEventListener("abort", onAbort, { once: true });
    try {
      return await this.#drive(held);
    } finally {
      request.signal.removeEventListener("abort", onAbort);
    }
  }

  /** A backend asks the client something during a call: it becomes one of the call's questions. */
  onBackendRequest(
    method: ServerToClientMethod,
    params: unknown,
    relatedId: JSONRPCId | undefined,
  ): Promise<unknown> {
    const held = relatedId === undefined ? undefined : this.#byInternalId.get(relatedId);
    if (held === undefined || held.outcome !== undefined) {
      return Promise.reject(
        new JSONRPCError(
          GatewayErrorCode.RelayTargetUnknown,
          `${method} names no call of a modern client in progress`,
        ),
      );
    }
    const capability = CLIENT_CAPABILITY_OF[method];
    const urlMode = method === "elicitation/create" && isUrlMode(params);
    const declared = held.current.clientCapabilities;
    if (declared[capability] === undefined || (urlMode && !declaresUrlElicitation(declared))) {
      // 2026-07-28: a request needing an undeclared client capability fails with -32021.
      const needed = urlMode ? "elicitation.url" : capability;
      const error = createMissingRequiredClientCapabilityError(
        urlMode ? { elicitation: { url: {} } } : { [capability]: {} },
        `The backend asked for ${method}, which needs the client capability "${needed}" that the request did not declare`,
      );
      held.settle({ ok: false, error: new JSONRPCError(error.code, error.message, error.data) });
      return Promise.reject(
        new JSONRPCError(
          GatewayErrorCode.CapabilityNotSupported,
          `The client does not support ${method} (no ${needed} capability)`,
        ),
      );
    }
    const body = (typeof params === "object" && params !== null ? params : {}) as Record<
      string,
      unknown
    >;
    const { [INPUT_KEY_META_KEY]: wanted, ...meta } = (body._meta ?? {}) as Record<string, unknown>;
    const { _meta: _dropped, ...rest } = body;
    const shown = Object.keys(meta).length > 0 ? { ...rest, _meta: meta } : rest;
    const { key, answer } = held.ask(method, shown, wanted);
    answerFromEarlyResponses(held, key);
    return answer;
  }

  /** Releases every call (the front closes). */
  releaseAll(): void {
    for (const held of [...this.#byKey.values()]) {
      this.#end(held, new Error("the gateway closed the client's modern front"));
    }
  }

  #start(method: string, target: string, params: Record<string, unknown>, round: ActiveRound) {
    const held = new HeldCall(crypto.randomUUID(), { method, target, caller: this.#caller }, round);
    this.#byKey.set(held.key, held);
    const { inputResponses: answers, requestState: _state, ...forwarded } = params;
    if (typeof answers === "object" && answers !== null && !Array.isArray(answers)) {
      held.earlyResponses = { ...(answers as Record<string, unknown>) };
    }
    this.#request(method, withoutProgressToken(forwarded), {
      signal: held.abort.signal,
      onRequestId: (id) => {
        held.internalId = id;
        this.#byInternalId.set(id, held);
      },
      onProgress: (progress) => {
        const token = held.current.progressToken;
        if (!held.live || token === undefined) return;
        held.current.notify("notifications/progress", {
          ...(progress as Record<string, unknown>),
          progressToken: token,
        });
      },
    }).then(
      (value) => held.settle({ ok: true, value }),
      (error: unknown) => held.settle({ ok: false, error }),
    );
    return held;
  }

  async #resume(
    method: string,
    target: string,
    params: Record<string, unknown>,
    round: ActiveRound,
  ) {
    const state = await this.#codec.open(params.requestState, {
      method,
      target,
      caller: this.#caller,
    });
    const held = this.#byKey.get(state.held);
    if (held === undefined) {
      throw new JSONRPCError(
        GatewayErrorCode.HeldCallEnded,
        "The call this requestState names has ended (its deadline passed, it was cancelled, or the gateway restarted); send the request again without requestState",
      );
    }
    if (held.live || state.round !== held.round) {
      throw new JSONRPCError(
        INVALID_PARAMS,
        "Invalid requestState: it is not the latest state of its call, or that call is being resumed",
      );
    }
    applyInputResponses(held, params.inputResponses);
    this.#unledger(held);
    this.#settings.clock.clearTimeout(held.deadline);
    held.current = round;
    held.live = true;
    return held;
  }

  async #drive(held: HeldCall): Promise<unknown> {
    for (;;) {
      const outcome = held.outcome;
      if (outcome !== undefined) {
        this.#forget(held);
        if (outcome.ok) return outcome.value;
        throw outcome.error;
      }
      if (held.pending.size > 0) {
        // Questions a backend asks at once (Promise.all) arrive one by one: gather them.
        const gather = this.#settings.inputGatherMs;
        if (gather > 0) {
          await new Promise<void>((resolve) => this.#settings.clock.setTimeout(resolve, gather));
        }
        if (held.outcome === undefined) {
          const answer = await this.#suspend(held);
          if (answer !== undefined) return answer;
        }
        continue;
      }
      await held.changed();
    }
  }

  /** The `input_required` result of a call put on hold, or undefined when it ended meanwhile. */
  async #suspend(held: HeldCall): Promise<Record<string, unknown> | undefined> {
    if (await this.#overLimit(held)) {
      const error = new JSONRPCError(
        GatewayErrorCode.TooManyHeldCalls,
        `The client has ${this.#settings.maxHeldCalls} calls waiting for input already (maxHeldCalls); answer or abandon one first`,
      );
      this.#end(held, error);
      throw error;
    }
    // The cluster's ledger answered asynchronously: the backend may have finished meanwhile.
    if (held.outcome !== undefined) return undefined;
    held.round += 1;
    held.live = false;
    held.deadline = this.#settings.clock.setTimeout(
      () =>
        this.#end(
          held,
          new Error(`no retry came within heldCallTimeoutMs (${this.#settings.heldCallTimeoutMs})`),
        ),
      this.#settings.heldCallTimeoutMs,
    );
    const inputRequests: Record<string, unknown> = {};
    for (const [key, input] of held.pending) {
      inputRequests[key] = { method: input.method, params: input.params };
    }
    const requestState = await this.#codec.seal({
      held: held.key,
      round: held.round,
      method: held.method,
      target: held.target,
      caller: held.caller,
      ...(this.#settings.cluster === undefined
        ? {}
        : { replica: this.#settings.cluster.replicaId }),
    });
    return { resultType: "input_required", inputRequests, requestState };
  }

  /** True when the caller has `maxHeldCalls` calls waiting already (across replicas with a ledger). */
  async #overLimit(held: HeldCall): Promise<boolean> {
    const max = this.#settings.maxHeldCalls;
    const local = this.waiting >= max;
    const ledger = this.#settings.cluster?.heldCallLedger;
    if (ledger === undefined || local) return local;
    this.#ledgered.add(held.key);
    try {
      return (await ledger.hold(this.#scope, held.key, this.#settings.heldCallTimeoutMs)) > max;
    } catch {
      // The ledger cannot be reached: the limit holds on this replica at least.
      return local;
    }
  }

  #unledger(held: HeldCall): void {
    if (!this.#ledgered.delete(held.key)) return;
    this.#settings.cluster?.heldCallLedger?.release(this.#scope, held.key);
  }

  #end(held: HeldCall, reason: Error): void {
    held.release(reason);
    this.#forget(held);
  }

  #forget(held: HeldCall): void {
    this.#unledger(held);
    this.#settings.clock.clearTimeout(held.deadline);
    this.#byKey.delete(held.key);
    if (held.internalId !== undefined) this.#byInternalId.delete(held.internalId);
  }
}

function withoutProgressToken(params: Record<string, unknown>): Record<string, unknown> {
  const meta = params._meta;
  if (typeof meta !== "object" || meta === null || !("progressToken" in meta)) return params;
  const { progressToken: _token, ...rest } = meta as Record<string, unknown>;
  return { ...params, _meta: rest };
}

function isUrlMode(params: unknown): boolean {
  return (params as { mode?: unknown } | undefined)?.mode === "url";
}
