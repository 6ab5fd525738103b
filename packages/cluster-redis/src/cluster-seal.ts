import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";

/** Fewest characters a cluster secret may have (32 random bytes in base64 are 44). */
export const MIN_CLUSTER_SECRET_LENGTH = 32;
/** How far a bus message's time may be from the receiver's clock (ms); older ones are replays. */
export const BUS_MESSAGE_WINDOW_MS = 30_000;

const VERSION = "pb1";
const SALT = "patchbay-cluster";

/** A cluster secret is missing or too short: a clustered replica refuses to start. */
export class ClusterSecretError extends Error {
  readonly code = "CLUSTER_SECRET";
  constructor(message: string) {
    super(message);
    this.name = "ClusterSecretError";
  }
}

/**
 * Seals what replicas exchange through Redis with an HMAC-SHA256 under keys derived from the
 * cluster secret (never stored in Redis), and opens it again.
 *
 * - A bus message is bound to its channel and carries its time and a nonce: one older than
 *   {@link BUS_MESSAGE_WINDOW_MS}, from the future by as much, or seen before, does not open.
 * - A stored record is bound to its purpose (which names its key: a record copied to another
 *   key does not open) and has no time limit.
 *
 * `open` and `openRecord` return the payload, or `undefined` for anything forged, altered,
 * replayed or sealed with another secret (compared in constant time). The first secret seals;
 * every one of them opens (rotation: add the new secret first, keep the old one until every
 * replica has the new one).
 */
export interface ClusterSeal {
  /** A bus message for `channel`. */
  seal(channel: string, payload: string): string;
  /** The payload of a bus message received on `channel`, or `undefined`. */
  open(channel: string, text: string): string | undefined;
  /** A record stored in Redis for `purpose` (e.g. `session:<id>`). */
  sealRecord(purpose: string, payload: string): string;
  /** The payload of a stored record read for `purpose`, or `undefined`. */
  openRecord(purpose: string, text: string): string | undefined;
  /** The 32-byte key of modern `requestState`, derived from the first secret. */
  readonly requestStateKey: Uint8Array;
}

/**
 * Checks the secrets (at least one, each at least {@link MIN_CLUSTER_SECRET_LENGTH} characters;
 * the message never carries a secret) and builds the seal. `now` is for tests.
 */
export function createClusterSeal(
  secrets: readonly string[],
  now: () => number = Date.now,
): ClusterSeal {
  checkClusterSecrets(secrets);
  const keys = secrets.map((secret) => derive(secret, "bus"));
  const sealingKey = keys[0] as Buffer;
  const seen = new ReplayGuard();
  const bootId = randomBytes(6).toString("base64url");
  let counter = 0;

  const mac = (key: Buffer, text: string) => createHmac("sha256", key).update(text).digest();
  const matches = (signed: string, tag: string) => {
    const given = Buffer.from(tag, "base64url");
    if (given.length !== 32) return false;
    // Every key is tried, so the time taken does not tell which one matched.
    let found = false;
    for (const key of keys) found = timingSafeEqual(mac(key, signed), given) || found;
    return found;
  };

  return {
    seal(channel, payload) {
      counter += 1;
      const head = `${VERSION}.${now().toString(36)}.${bootId}${counter.toString(36)}`;
      const tag = mac(sealingKey, `${head}.${channel}.${payload}`).toString("base64url");
      return `${head}.${tag}.${payload}`;
    },
    open(channel, text) {
      const parts = splitSealed(text, 4);
      if (parts === undefined) return undefined;
      const [version, time, nonce, tag, payload] = parts as [
        string,
        string,
        string,
        string,
        string,
      ];
      const at = Number.parseInt(time, 36);
      if (version !== VERSION || !Number.isFinite(at)) return undefined;
      if (Math.abs(now() - at) > BUS_MESSAGE_WINDOW_MS) return undefined;
      if (!matches(`${version}.${time}.${nonce}.${channel}.${payload}`, tag)) return undefined;
      if (!seen.first(tag, at + BUS_MESSAGE_WINDOW_MS, now())) return undefined;
      return payload;
    },
    sealRecord(purpose, payload) {
      const tag = mac(sealingKey, `${VERSION}.record.${purpose}.${payload}`).toString("base64url");
      return `${VERSION}.${tag}.${payload}`;
    },
    openRecord(purpose, text) {
      const parts = splitSealed(text, 2);
      if (parts === undefined) return undefined;
      const [version, tag, payload] = parts as [string, string, string];
      if (version !== VERSION) return undefined;
      return matches(`${VERSION}.record.${purpose}.${payload}`, tag) ? payload : undefined;
    },
    requestStateKey: new Uint8Array(derive(secrets[0] as string, "request-state")),
  };
}

/** Throws {@link ClusterSecretError} unless there is a secret and each one is long enough. */
export function checkClusterSecrets(secrets: readonly (string | undefined)[]): void {
  if (secrets.length === 0 || secrets[0] === undefined || secrets[0] === "") {
    throw new ClusterSecretError(
      "a clustered replica needs cluster.secret (the same on every replica; generate one with `openssl rand -base64 32`)",
    );
  }
  for (const secret of secrets) {
    if (secret === undefined || secret.length < MIN_CLUSTER_SECRET_LENGTH) {
      throw new ClusterSecretError(
        `cluster secrets must be at least ${MIN_CLUSTER_SECRET_LENGTH} characters (generate one with \`openssl rand -base64 32\`)`,
      );
    }
  }
}

function derive(secret: string, use: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, SALT, `patchbay ${use} v1`, 32));
}

/** `count` dot-separated fields, then the rest (the payload, which may hold dots). */
function splitSealed(text: string, count: number): string[] | undefined {
  const parts: string[] = [];
  let start = 0;
  for (let index = 0; index < count; index += 1) {
    const dot = text.indexOf(".", start);
    if (dot < 0) return undefined;
    parts.push(text.slice(start, dot));
    start = dot + 1;
  }
  parts.push(text.slice(start));
  return parts;
}

/** The tags of bus messages opened within the window (each message opens once). */
class ReplayGuard {
  private readonly expiries = new Map<string, number>();

  first(tag: string, expiresAt: number, now: number): boolean {
    for (const [old, at] of this.expiries) {
      if (at > now) break;
      this.expiries.delete(old);
    }
    if (this.expiries.has(tag)) return false;
    this.expiries.set(tag, expiresAt);
    return true;
  }
}
