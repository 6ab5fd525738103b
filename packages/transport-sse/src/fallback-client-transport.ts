import {
  type Frame,
  type FrameInfo,
  messagesOf,
  type Transport,
  type TransportCloseEvent,
  TransportError,
  TransportEvents,
  type Unsubscribe,
} from "@patchbay/jsonrpc-core";
import {
  HttpStatusError,
  StreamableHttpClientTransport,
  type StreamableHttpClientTransportOptions,
} from "@patchbay/transport-http/client";
import { SseClientTransport } from "./sse-client-transport.js";

/** Which transport a {@link FallbackClientTransport} settled on. */
export type SettledTransportKind = "streamable-http" | "sse";

/** Options of {@link FallbackClientTransport}: the Streamable HTTP client's, used by both. */
export type FallbackClientTransportOptions = StreamableHttpClientTransportOptions;

/**
 * A client transport for a server whose era is unknown (MCP 2025-03-26, backwards compatibility):
 * it POSTs `initialize` to the URL as Streamable HTTP; when that answers 4xx, it opens the same URL as
 * a legacy HTTP+SSE stream and sends `initialize` there. It lives in this package because it needs
 * both transports; `@patchbay/transport-http` does not depend on this package.
 */
export class FallbackClientTransport implements Transport {
  private readonly options: FallbackClientTransportOptions;
  private readonly events = new TransportEvents();
  private active: Transport;
  private settledKind: SettledTransportKind | undefined;
  private deciding: Promise<void> | undefined;

  constructor(options: FallbackClientTransportOptions) {
    this.options = options;
    this.active = this.adopt(new StreamableHttpClientTransport(options));
  }

  /** `streamable-http` or `sse` once the first `initialize` decided; `undefined` before. */
  get kind(): SettledTransportKind | undefined {
    return this.settledKind;
  }

  /** The transport in use (the Streamable HTTP client until a fallback happens). */
  get transport(): Transport {
    return this.active;
  }

  async start(): Promise<void> {
    this.events.start();
    if (this.settledKind !== undefined) await this.active.start();
  }

  async send(frame: Frame): Promise<void> {
    if (this.events.closed) throw new TransportError("client transport is closed");
    if (this.settledKind !== undefined) {
      await this.active.send(frame);
      return;
    }
    if (!carriesInitialize(frame)) {
      await this.deciding;
      if (this.settledKind === undefined) {
        throw new TransportError("send initialize first: the server's transport is not known yet");
      }
      await this.active.send(frame);
      return;
    }
    const attempt = this.tryStreamableHttp(frame);
    this.deciding = attempt.then(
      () => {},
      () => {},
    );
    await attempt;
  }

  async close(): Promise<void> {
    await this.active.close();
    this.events.emitClose({ initiator: "local" });
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

  private async tryStreamableHttp(frame: Frame): Promise<void> {
    try {
      await this.active.start();
      await this.active.send(frame);
      this.settledKind = "streamable-http";
      return;
    } catch (error) {
      // 2025-03-26 names 400, 404 and 405; 2025-06-18 says any 4xx.
      if (!HttpStatusError.isInstance(error) || error.status < 400 || error.status >= 500)
        throw error;
    }
    const previous = this.active;
    this.active = this.adopt(new SseClientTransport(this.options));
    await previous.close().catch(() => {});
    await this.active.start();
    this.settledKind = "sse";
    await this.active.send(frame);
  }

  private adopt(transport: Transport): Transport {
    transport.onFrame((frame, info) => {
      if (transport === this.active) this.events.emitFrame(frame, info);
    });
    transport.onError((error) => {
      if (transport === this.active) this.events.emitError(error);
    });
    transport.onClose((event) => {
      if (transport === this.active && event.initiator !== "local") this.events.emitClose(event);
    });
    return transport;
  }
}

function carriesInitialize(frame: Frame): boolean {
  return messagesOf(frame).some(
    (message) => "method" in message && message.method === "initialize",
  );
}
