import type { Transport } from "@patchbay/jsonrpc-core";

/**
 * Whether a transport has a capability: `true`, `false`, or `{ unsupported: reason }` to say why not.
 * The reason appears in the name of each case that does not apply.
 */
export type Capability = boolean | { readonly unsupported: string };

/** The side of a pair: the client transport or the server transport. */
export type TransportSide = "client" | "server";

/** The direction frames travel in: from the client to the server, or back. */
export type TransportDirection = "clientToServer" | "serverToClient";

/**
 * A value that is the same both ways, or one per direction where a transport differs (for example
 * ordered from the server, unordered from the client). An omitted direction takes the default.
 */
export type Directional<T> =
  | T
  | { readonly clientToServer?: T | undefined; readonly serverToClient?: T | undefined };

/** Two connected transports under test, made fresh for every case. */
export interface TransportPair {
  /** The client end (for example the side that spawned the child process or sends HTTP requests). */
  readonly client: Transport;
  /** The server end. */
  readonly server: Transport;
  /**
   * Delivers raw text to `side` through its real receive path, as if the peer had written it (for a
   * line-framed transport, `text` ends with a newline). Required unless `capabilities.invalidFrames`
   * says that side cannot receive invalid text.
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
  /** The server side can end the transport by calling `close()` (the client side always can). */
  readonly serverClose?: Capability;
  /** Frames arrive in the order they were sent, per direction. */
  readonly orderedDelivery?: Directional<Capability>;
  /**
   * The receiving side gets text, so a peer can send text that is not valid JSON-RPC; the pair's
   * `injectText` delivers such text (required where this is supported). Per direction:
   * `clientToServer` is text arriving at the server.
   */
  readonly invalidFrames?: Directional<Capability>;
  /**
   * `createPair` returns transports that are not started yet, so the rule that frames arriving
   * before `start()` are held for it can be checked. Declare it unsupported for a pair that must be
   * started to be made (for example one whose session is opened by a handshake).
   */
  readonly framesBeforeStart?: Capability;
  /** The largest frame in bytes of UTF-8 JSON that the transport carries, per direction (default: unlimited). */
  readonly maxMessageBytes?: Directional<number>;
}

/**
 * A case that is known to fail, with the reason (for example a defect reported upstream). It is
 * still run: the report shows it as `[known failure: reason]`, and it fails when it starts passing,
 * so the declaration is removed once the defect is fixed. `failsWith` pins the failure's message.
 * Its steps wait at most 500 ms (or `waitTimeoutMs`, when lower).
 */
export type KnownFailure =
  | string
  | { readonly reason: string; readonly failsWith?: string | RegExp | undefined };

/** What `describeTransportContract` needs to run the suite against one transport. */
export interface TransportContractOptions {
  /** The transport's name, shown in the title of the suite. */
  readonly name: string;
  /** Makes a fresh connected pair; the transports may be started already or not. */
  readonly createPair: () => TransportPair | Promise<TransportPair>;
  /** What the transport can and cannot do; omitted keys are supported. */
  readonly capabilities?: TransportCapabilities;
  /** Cases known to fail, by their name (without any bracketed suffix), with the reason. */
  readonly knownFailures?: Readonly<Record<string, KnownFailure>>;
  /**
   * How many frames each delivery case keeps in flight at once (default 10,000; it appears in the
   * cases' names). Lower it only for a transport that is slow per frame, and say why beside it.
   */
  readonly framesInFlight?: number;
  /** Timeout of each case in milliseconds (default 30,000): a backstop behind `waitTimeoutMs`. */
  readonly timeoutMs?: number;
  /**
   * How long a step waits for what a rule promises (a frame, a close event, a response, `close()`
   * resolving) before the case fails with the rule's name and what it waited for (default 2,000).
   * Steps that receive many frames fail when none arrives for this long.
   */
  readonly waitTimeoutMs?: number;
}
