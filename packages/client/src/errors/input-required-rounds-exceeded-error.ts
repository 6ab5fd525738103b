import { LocalError } from "@patchbay/jsonrpc-core";

const marker = Symbol.for("@patchbay/client/InputRequiredRoundsExceededError");

/**
 * A modern server kept answering `input_required` past `maxInputRounds` retries of one request
 * (`code: "INPUT_REQUIRED_ROUNDS_EXCEEDED"`); the client stopped retrying.
 */
export class InputRequiredRoundsExceededError extends LocalError {
  /** The request that was retried. */
  readonly method: string;
  /** The limit that was reached. */
  readonly maxRounds: number;

  /** Creates the error for `method` after `maxRounds` rounds. */
  constructor(method: string, maxRounds: number) {
    super(
      "INPUT_REQUIRED_ROUNDS_EXCEEDED",
      `${method} still required input after ${maxRounds} rounds (maxInputRounds); gave up`,
    );
    this.name = "InputRequiredRoundsExceededError";
    this.method = method;
    this.maxRounds = maxRounds;
    Object.defineProperty(this, marker, { value: true });
  }

  /** True for an InputRequiredRoundsExceededError from any installed copy of this package. */
  static override isInstance(value: unknown): value is InputRequiredRoundsExceededError {
    return typeof value === "object" && value !== null && marker in value;
  }
}
