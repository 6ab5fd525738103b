import { randomUUID } from "node:crypto";
import type {
  ModernRelay,
  RelayedModernContext,
  RelayedModernRequest,
} from "@patchbay/http-gateway";
import { ErrorCode, type JSONRPCResponse } from "@patchbay/jsonrpc-core";
import type { Redis } from "ioredis";
import type { ClusterSeal } from "./cluster-seal.js";
import type { RedisSubscriber } from "./redis-subscriber.js";

/** Most relayed modern requests a replica waits on, and serves, at once. */
export const MAX_RELAYED_MODERN_REQUESTS = 1000;

type Envelope =
  | { t: "call"; id: string; from: string; request: RelayedModernRequest }
  | { t: "cancel"; id: string }
  | { t: "probe"; id: string; from: string }
  | { t: "notify"; id: string; method: string; params: Record<string, unknown> }
  | { t: "answer"; id: string; response: JSONRPCResponse }
  | { t: "lost"; id: string; reason?: string };

interface Waiting {
  readonly notify: RelayedModernContext["notify"];
  answer(response: JSONRPCResponse): void;
  fail(error: Error): void;
}

type Handler = Parameters<ModernRelay["serve"]>[1];

/** The relay and what closing it needs. */
export interface RedisModernRelay extends ModernRelay {
  /** Stops listening, fails every relayed request still waiting here and cancels those served. */
  close(): void;
}

/** Options of {@link createRedisModernRelay}. */
interface RedisModernRelayOptions {
  readonly client: Redis;
  readonly subscriber: RedisSubscriber;
  readonly seal: ClusterSeal;
  readonly prefix: string;
  readonly replicaId: string;
  readonly probeIntervalMs: number;
  readonly onWarning: (message: string) => void;
}

/** The relay's channels and its requests, both those it waits on and those it serves. */
interface RelayContext {
  readonly options: RedisModernRelayOptions;
  /** Relayed requests this replica sent, by id, until answered or failed. */
  readonly waiting: Map<string, Waiting>;
  /** Relayed requests this replica runs, by id, until answered or cancelled. */
  readonly serving: Map<string, AbortController>;
  /** The handler of each profile this replica serves modern requests on. */
  readonly handlers: Map<string, Handler>;
  /** Seals and publishes an envelope on a replica's channel; resolves to its receivers. */
  publish(replica: string, envelope: Envelope): Promise<number>;
  /** Publishes to the sender of a relayed request, warning when that fails. */
  reply(to: string, envelope: Envelope): void;
}

function channelOf(options: RedisModernRelayOptions, replica: string): string {
  return `${options.prefix}modern:${replica}`;
}

function createRelayContext(options: RedisModernRelayOptions): RelayContext {
  const publish = (replica: string, envelope: Envelope) => {
    const channel = channelOf(options, replica);
    return options.client.publish(channel, options.seal.seal(channel, JSON.stringify(envelope)));
  };
  return {
    options,
    waiting: new Map(),
    serving: new Map(),
    handlers: new Map(),
    publish,
    reply(to, envelope) {
      publish(to, envelope).catch((error: unknown) => {
        options.onWarning(`a relayed modern request's answer was lost: ${String(error)}`);
      });
    },
  };
}

/**
 * A {@link ModernRelay} over Redis pub/sub, one channel `<prefix>modern:<replica id>` per replica.
 * A retry is published to the holder's channel: no subscriber there (Redis closed the channel of a
 * replica that died, SIGKILL included) fails it at once. While it waits, the holder is probed every
 * `probeIntervalMs`: a holder gone, or one that no longer runs the request (restarted under the same
 * id), fails it too, so a relayed retry never hangs. The holder sends the request's notifications
 * and then its answer back on the sender's channel, in order; the client going away cancels it there.
 */
export function createRedisModernRelay(options: RedisModernRelayOptions): RedisModernRelay {
  const context = createRelayContext(options);
  const { waiting, serving, handlers } = context;
  const stopListening = options.subscriber.listen(channelOf(options, options.replicaId), (text) =>
    receive(context, JSON.parse(text) as Envelope),
  );
  return {
    forward: (holder, request, requestContext) => forward(context, holder, request, requestContext),
    serve(profile, handler) {
      handlers.set(profile, handler);
      return () => {
        if (handlers.get(profile) === handler) handlers.delete(profile);
      };
    },
    close() {
      stopListening();
      for (const entry of [...waiting.values()]) entry.fail(new Error("this replica is stopping"));
      for (const aborter of serving.values()) aborter.abort(new Error("the replica is stopping"));
      serving.clear();
    },
  };
}

/**
 * An envelope on this replica's channel: a call to serve, its cancel or a probe of it, or the news
 * of a call this replica waits on.
 */
function receive(context: RelayContext, envelope: Envelope) {
  const { waiting, serving } = context;
  switch (envelope.t) {
    case "call":
      return serveCall(context, envelope);
    case "cancel":
      serving.get(envelope.id)?.abort(new Error("the client cancelled the request"));
      serving.delete(envelope.id);
      return;
    case "probe":
      if (!serving.has(envelope.id)) context.reply(envelope.from, { t: "lost", id: envelope.id });
      return;
    case "notify":
      return waiting.get(envelope.id)?.notify(envelope.method, envelope.params);
    case "answer":
      return waiting.get(envelope.id)?.answer(envelope.response);
    case "lost":
      return waiting
        .get(envelope.id)
        ?.fail(new Error(envelope.reason ?? "it no longer runs the request"));
  }
}

/**
 * The holder's side: runs a relayed call on its profile's handler (or refuses it), sending its
 * notifications and then its answer back to the sender, unless the sender cancelled it.
 */
function serveCall(context: RelayContext, envelope: Extract<Envelope, { t: "call" }>): void {
  const { options, serving, reply } = context;
  const { id, from, request } = envelope;
  const handler = context.handlers.get(request.profile);
  if (handler === undefined || serving.size >= MAX_RELAYED_MODERN_REQUESTS) {
    const reason =
      handler === undefined
        ? `it serves no modern requests on profile "${request.profile}"`
        : `it serves ${MAX_RELAYED_MODERN_REQUESTS} relayed requests already`;
    reply(from, { t: "lost", id, reason });
    options.onWarning(`refused a relayed modern request from ${from}: ${reason}`);
    return;
  }
  const aborter = new AbortController();
  serving.set(id, aborter);
  const notify = (method: string, params: Record<string, unknown>) => {
    if (!aborter.signal.aborted) reply(from, { t: "notify", id, method, params });
  };
  handler(request, { signal: aborter.signal, notify })
    .then(
      (response) =>
        response ?? {
          jsonrpc: "2.0" as const,
          id: request.message.id,
          error: { code: ErrorCode.InternalError, message: "the relayed request had no answer" },
        },
      (error: unknown) => ({
        jsonrpc: "2.0" as const,
        id: request.message.id,
        error: { code: ErrorCode.InternalError, message: String(error) },
      }),
    )
    .then((response) => {
      serving.delete(id);
      if (!aborter.signal.aborted) reply(from, { t: "answer", id, response });
    });
}

/**
 * The sender's side: publishes a call to its holder and waits for the answer, probing the holder
 * meanwhile; the holder gone, Redis unreachable or the client going away fails it.
 */
function forward(
  relay: RelayContext,
  holder: string,
  request: RelayedModernRequest,
  context: RelayedModernContext,
): Promise<JSONRPCResponse> {
  const { options, waiting, publish } = relay;
  const { replicaId } = options;
  if (waiting.size >= MAX_RELAYED_MODERN_REQUESTS) {
    return Promise.reject(
      new Error(`this replica waits on ${MAX_RELAYED_MODERN_REQUESTS} relayed requests already`),
    );
  }
  if (context.signal.aborted) return Promise.reject(new Error("the client went away"));
  const id = randomUUID();
  return new Promise<JSONRPCResponse>((resolve, reject) => {
    const gone = () => new Error(`replica ${holder} is gone`);
    const unreachable = (error: unknown) =>
      new Error(`Redis cannot be reached: ${(error as Error).message}`);
    const end = () => {
      clearInterval(timer);
      waiting.delete(id);
      context.signal.removeEventListener("abort", onAbort);
    };
    const entry: Waiting = {
      notify: context.notify,
      answer: (response) => {
        end();
        resolve(response);
      },
      fail: (error) => {
        end();
        reject(error);
      },
    };
    const onAbort = () => {
      publish(holder, { t: "cancel", id }).catch(() => {});
      entry.fail(new Error("the client went away"));
    };
    const check = (receivers: number) => {
      if (receivers === 0) entry.fail(gone());
    };
    const timer = setInterval(() => {
      publish(holder, { t: "probe", id, from: replicaId }).then(check, (error: unknown) =>
        entry.fail(unreachable(error)),
      );
    }, options.probeIntervalMs);
    timer.unref();
    waiting.set(id, entry);
    context.signal.addEventListener("abort", onAbort, { once: true });
    publish(holder, { t: "call", id, from: replicaId, request }).then(check, (error: unknown) =>
      entry.fail(unreachable(error)),
    );
  });
}
