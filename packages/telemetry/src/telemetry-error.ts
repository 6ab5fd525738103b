const marker = Symbol.for("@patchbay/telemetry/TelemetryError");

/** String codes of {@link TelemetryError}. */
export type TelemetryErrorCode = "INVALID_QUERY" | "INVALID_METRIC";

/**
 * A local telemetry error (never sent on the wire as if a peer had sent it). `INVALID_QUERY` has a
 * message meant for the caller of `get_events`, naming the field and what was expected.
 */
export class TelemetryError extends Error {
  /** Which kind of failure this is. */
  readonly code: TelemetryErrorCode;
  /** Set on every instance so {@link TelemetryError.isInstance} works across duplicate installs. */
  readonly [marker] = true;

  /** Creates the error; `cause` is the underlying failure, when there is one. */
  constructor(code: TelemetryErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "TelemetryError";
    this.code = code;
  }

  /** True for a TelemetryError from any copy of this package. */
  static isInstance(value: unknown): value is TelemetryError {
    return typeof value === "object" && value !== null && marker in value;
  }
}
