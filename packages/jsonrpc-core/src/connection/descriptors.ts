/**
 * Anything with a `parse` method that returns the parsed value or throws: a zod schema, a valibot
 * wrapper, or a hand-written checker. jsonrpc-core never depends on a schema library.
 */
export interface SchemaLike<T> {
  /** Returns the value as `T`, or throws (ideally an error with an `issues` array). */
  parse(value: unknown): T;
}

/** Describes a request method: its name and, optionally, schemas for its params and result. */
export interface RequestDescriptor<Params = unknown, Result = unknown> {
  /** The method name as it goes on the wire. */
  readonly method: string;
  /** Checks incoming params before the handler runs (failure: -32602 with the issues in `data`). */
  readonly params?: SchemaLike<Params>;
  /** Checks the peer's result before `request()` resolves (failure: ResultValidationError). */
  readonly result?: SchemaLike<Result>;
}

/** Describes a notification method: its name and, optionally, a schema for its params. */
export interface NotificationDescriptor<Params = unknown> {
  /** The method name as it goes on the wire. */
  readonly method: string;
  /** Checks incoming params before the handler runs (failure: reported via `onError`). */
  readonly params?: SchemaLike<Params>;
}

/** What a schema threw, as `data` for a -32602 error: its `issues` when it has them. */
export function describeSchemaFailure(error: unknown): unknown {
  if (typeof error === "object" && error !== null && "issues" in error) {
    return { issues: (error as { issues: unknown }).issues };
  }
  return { issues: [{ message: error instanceof Error ? error.message : String(error) }] };
}
