import type { RequestId } from "../../src/shared/primitives.js";
import { validateMessage } from "../../src/validation/validate-message.js";
import type { ProtocolVersion } from "../../src/versions.js";

/** Who sent a captured message. */
export type Direction = "client-to-server" | "server-to-client";

/** One message seen on the wire between an SDK client and server. */
export interface CapturedMessage {
  readonly direction: Direction;
  readonly message: Record<string, unknown>;
}

/** A captured message our schemas refused, with why. */
export interface RefusedMessage {
  readonly direction: Direction;
  readonly message: unknown;
  readonly reason: string;
}

const opposite = (direction: Direction): Direction =>
  direction === "client-to-server" ? "server-to-client" : "client-to-server";

/** Records messages and remembers which method each request id belongs to, per sender. */
export class Capture {
  readonly messages: CapturedMessage[] = [];
  private readonly methods = new Map<string, string>();

  /** Records one message (a deep copy, so later mutation by an SDK cannot change it). */
  record(direction: Direction, message: unknown): void {
    const copy = JSON.parse(JSON.stringify(message)) as Record<string, unknown>;
    this.messages.push({ direction, message: copy });
    if (typeof copy.method === "string" && "id" in copy) {
      this.methods.set(`${direction}:${String(copy.id)}`, copy.method);
    }
  }

  /** The method of the request a response (sent in `direction`) answers. */
  requestMethodOf(direction: Direction, id: RequestId): string | undefined {
    return this.methods.get(`${opposite(direction)}:${String(id)}`);
  }

  /** The methods seen, for coverage assertions. */
  methodsSeen(): Set<string> {
    const seen = new Set<string>();
    for (const { message } of this.messages) {
      if (typeof message.method === "string") seen.add(message.method);
    }
    return seen;
  }

  /** Validates every captured message against `revision`; returns the refused ones. */
  refusedBy(revision: ProtocolVersion): RefusedMessage[] {
    const refused: RefusedMessage[] = [];
    for (const { direction, message } of this.messages) {
      const result = validateMessage(revision, message, {
        requestMethod: (id) => this.requestMethodOf(direction, id),
      });
      if (!result.success) refused.push({ direction, message, reason: result.message });
    }
    return refused;
  }
}
