import {
  decode,
  encode,
  type Frame,
  InvalidFrameError,
  type Transport,
  TransportError,
  TransportEvents,
} from "@patchbay/jsonrpc-core";

/** Anything that carries text both ways: a MessagePort, a WebSocket, a worker... */
export interface TextPort {
  post(text: string): void;
  onText(listener: (text: string) => void): void;
  onEnd(listener: () => void): void;
}

/** A transport over a TextPort: the channel is written here, the events come from TransportEvents. */
export function createPortTransport(port: TextPort): Transport {
  const events = new TransportEvents();
  port.onText((text) => {
    const result = decode(text);
    if (!result.ok) {
      events.emitError(new InvalidFrameError(result.response.error.message, result.response));
    } else if (result.rejected.length > 0) {
      events.emitFrame(result.frame, { rejected: result.rejected });
    } else {
      events.emitFrame(result.frame);
    }
  });
  port.onEnd(() => events.emitClose({ initiator: "remote" }));
  return {
    async start() {
      events.start();
    },
    async send(frame: Frame) {
      if (events.closed) throw new TransportError("Cannot send: the port is closed");
      port.post(encode(frame));
    },
    async close() {
      events.emitClose({ initiator: "local" });
    },
    onFrame: (listener) => events.onFrame(listener),
    onError: (listener) => events.onError(listener),
    onClose: (listener) => events.onClose(listener),
  };
}
