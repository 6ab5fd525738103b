import type { Transport } from "@patchbay/jsonrpc-core";

/**
 * Whether a transport has a capability: `true`, `false`, or `{ unsupported: reason }` to say why not.
 * The reason appears in the name of each case that does not apply.
 */
export type Capability = boolean | { readonly unsupported: string };

/** The side of a pair: the client transport or the server transport. */
export type TransportSide = "client" | "server";

/** Two connected transports under test, made fresh for every case. */
export interface TransportPair {
  /** The client end (for example the side that spawned the child process or sends HTTP requests). */
  readonly client: Transport;
  /** The server end. */
  readonly server: Transport;
  /**
   * Delivers raw text to `side` through its real receive path, as if the peer had written it (for a
   * line-framed transport, `text` ends with a newline). Required unless `capabilities.invalidFrames`
   * says the transport cannot receive invalid text.
   */
  readonly injectText?: (side: TransportSide, text: string) => void | Promise<void>;
  /** Releases whatever the pair holds (child processes, sockets, servers). Called after every case. */
  readonly dispose?: () => void | Promise<void>;
}

/** Real differences between transports; every key is optional and defaults to supported. */
export interface TransportCapabilities {
  /** Carries JSON-RPC batches (arrays of messages) as one frame. */
  readonly batches?: Capability;
  /** The server may send requests and notifications that answer nothing the client sent. */
  readonly serverInitiatedMessages?: Capability;
  /** The server side can end the transport by calling `close()`. */
  readonly serverClose?: Capability;
  /** Frames arrive in the order they were sent. */
  readonly orderedDelivery?: Capability;
  /**
   * The transport receives text, so a peer can send text that is not valid JSON-RPC; the pair's
   * `injectText` delivers such text (required when this is supported).
   */
  readonly invalidFrames?: Capability;
  /** The largest frame in bytes of UTF-8 JSON that the transport carries (default: unlimited). */
  readonly maxMessageBytes?: number;
}

/** What `describeTransportContract` needs to run the suite against one transport. */
export interface TransportContractOptions {
  /** The transport's name, shown in the title of the suite. */
  readonly name: string;
  /** Makes a fresh connected pair; the transports may be started already or not. */
  readonly createPair: () => TransportPair | Promise<TransportPair>;
  /** What the transport can and cannot do; omitted keys are supported. */
  readonly capabilities?: TransportCapabilities;
  /** Timeout of each case in milliseconds (default 30,000). */
  readonly timeoutMs?: number;
}
