import {
  type Frame,
  type FrameInfo,
  type JSONRPCMessage,
  type Transport,
  type TransportCloseEvent,
  TransportError,
  TransportEvents,
  type Unsubscribe,
} from "@patchbay/jsonrpc-core";
import { idKey } from "../message-keys.js";
import type { StreamableHttpServerTransport } from "../streamable-http-server-transport.js";

/**
 * The server application's view of a stateless endpoint as one Transport: frames of every per-POST
 * transport come out of it, and responses go back to the transport whose POST carried the request.
 * Stateless HTTP has no session, so nothing tells the server that a client went away: `endByClient`
 * stands in for that in the contract pair.
 */
export class StatelessFacade implements Transport {
  private readonly events = new TransportEvents();
  private readonly owners = new Map<string, StreamableHttpServerTransport>();
  private readonly live = new Set<StreamableHttpServerTransport>();

  /** Adopts the transport of one stateless POST. */
  adopt(transport: StreamableHttpServerTransport): void {
    if (this.events.closed) {
      void transport.close();
      return;
    }
    this.live.add(transport);
    transport.onClose(() => this.live.delete(transport));
    transport.onFrame((frame, info) => {
      for (const message of Array.isArray(frame) ? frame : [frame]) {
        const candidate = message as JSONRPCMessage;
        if ("method" in candidate && "id" in candidate) {
          this.owners.set(idKey(candidate.id), transport);
        }
      }
      this.events.emitFrame(frame, info);
    });
    void transport.start();
  }

  async start(): Promise<void> {
    this.events.start();
  }

  async send(frame: Frame): Promise<void> {
    if (this.events.closed) throw new TransportError("stateless facade is closed");
    const first = (Array.isArray(frame) ? frame[0] : frame) as JSONRPCMessage | undefined;
    if (first === undefined || "method" in first || first.id === null) {
      throw new TransportError("a stateless endpoint carries only responses");
    }
    const owner = this.owners.get(idKey(first.id));
    if (owner === undefined) throw new TransportError(`no POST awaits response ${first.id}`);
    for (const message of Array.isArray(frame) ? frame : [frame]) {
      const response = message as { id?: unknown };
      if (typeof response.id === "string" || typeof response.id === "number") {
        this.owners.delete(idKey(response.id));
      }
    }
    await owner.send(frame);
  }

  async close(): Promise<void> {
    this.finish({ initiator: "local" });
  }

  /** Ends the facade as if the client had ended a session. */
  endByClient(): void {
    this.finish({ initiator: "remote" });
  }

  onFrame(listener: (frame: Frame, info: FrameInfo) => void): Unsubscribe {
    return this.events.onFrame(listener);
  }

  onError(listener: (error: Error) => void): Unsubscribe {
    return this.events.onError(listener);
  }

  onClose(listener: (event: TransportCloseEvent) => void): Unsubscribe {
    return this.events.onClose(listener);
  }

  private finish(event: TransportCloseEvent): void {
    for (const transport of this.live) void transport.close();
    this.live.clear();
    this.owners.clear();
    this.events.emitClose(event);
  }
}
