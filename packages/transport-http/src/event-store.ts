import type { Frame } from "@patchbay/jsonrpc-core";

/** Sends one replayed event on the stream being resumed. */
export type ReplaySend = (eventId: string, message: Frame) => void | Promise<void>;

/**
 * Keeps the messages sent on SSE streams so that a client can resume a broken stream with
 * `Last-Event-ID` (MCP 2025-03-26+ resumability). Event ids must be unique across all streams of all
 * sessions served by one handler.
 */
export interface EventStore {
  /**
   * Stores a frame (a message, or a batch answered as one) sent on `streamId` and returns its event
   * id. `undefined` stores a priming marker: an id to resume from that carries no message.
   * `sessionId` names the session the stream belongs to (absent in stateless mode), for quotas.
   */
  storeEvent(
    streamId: string,
    message: Frame | undefined,
    sessionId?: string,
  ): string | Promise<string>;
  /**
   * Replays, in order, the messages stored on the same stream after `lastEventId`, and returns that
   * stream's id; returns `undefined` when the id is unknown (expired or never issued).
   */
  replayEventsAfter(lastEventId: string, send: ReplaySend): Promise<string | undefined>;
  /** Forgets a stream's events (called when its session ends). Optional. */
  forgetStream?(streamId: string): void;
}

/** Options of {@link createInMemoryEventStore}. */
export interface InMemoryEventStoreOptions {
  /** How many events are kept in all, oldest dropped first. Default 1000. */
  readonly maxEvents?: number;
  /**
   * How many events one session keeps, its own oldest dropped first, so that a busy session cannot
   * evict the resumable events of the others. Default 100.
   */
  readonly maxEventsPerSession?: number;
}

interface StoredEvent {
  readonly streamId: string;
  readonly message: Frame | undefined;
  readonly sessionId: string | undefined;
}

/** A bounded in-memory {@link EventStore}: fine for one process, lost on restart. */
export function createInMemoryEventStore(options: InMemoryEventStoreOptions = {}): EventStore {
  const maxEvents = options.maxEvents ?? 1000;
  const maxEventsPerSession = options.maxEventsPerSession ?? 100;
  // Map and Set keep insertion order, which is the order events were stored in.
  const events = new Map<string, StoredEvent>();
  const bySession = new Map<string, Set<string>>();
  // Each stream's events, so that forgetting a stream does not scan every event.
  const byStream = new Map<string, Set<string>>();
  let counter = 0;
  const remove = (eventId: string) => {
    const event = events.get(eventId);
    if (event === undefined) return;
    events.delete(eventId);
    const stream = byStream.get(event.streamId);
    stream?.delete(eventId);
    if (stream?.size === 0) byStream.delete(event.streamId);
    if (event.sessionId === undefined) return;
    const own = bySession.get(event.sessionId);
    own?.delete(eventId);
    if (own?.size === 0) bySession.delete(event.sessionId);
  };
  return {
    storeEvent(streamId, message, sessionId) {
      counter += 1;
      const eventId = `${streamId}_${counter}`;
      events.set(eventId, { streamId, message, sessionId });
      const stream = byStream.get(streamId) ?? new Set<string>();
      byStream.set(streamId, stream);
      stream.add(eventId);
      if (sessionId !== undefined) {
        const own = bySession.get(sessionId) ?? new Set<string>();
        bySession.set(sessionId, own);
        own.add(eventId);
        while (own.size > maxEventsPerSession) remove(own.values().next().value as string);
      }
      while (events.size > maxEvents) remove(events.keys().next().value as string);
      return eventId;
    },
    async replayEventsAfter(lastEventId, send) {
      const last = events.get(lastEventId);
      if (last === undefined) return undefined;
      let found = false;
      const replay: [string, Frame][] = [];
      for (const eventId of byStream.get(last.streamId) ?? []) {
        if (eventId === lastEventId) {
          found = true;
          continue;
        }
        const message = found ? events.get(eventId)?.message : undefined;
        if (message !== undefined) replay.push([eventId, message]);
      }
      for (const [eventId, message] of replay) await send(eventId, message);
      return last.streamId;
    },
    forgetStream(streamId) {
      for (const eventId of [...(byStream.get(streamId) ?? [])]) remove(eventId);
    },
  };
}
