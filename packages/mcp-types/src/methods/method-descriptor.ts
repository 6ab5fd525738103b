import type { z } from "zod";
import type { ProtocolVersion } from "../versions.js";
import { type McpMethod, METHOD_TABLE, type MethodDirection } from "./method-table.js";

/** Anything with a `parse` method: a zod schema, or a cheap shallow check. */
export interface SchemaLike<Output = unknown> {
  /** Returns the value typed, or throws when it does not conform. */
  parse(value: unknown): Output;
}

/**
 * A request method of one revision: usable directly by `@patchbay/jsonrpc-core`'s typed
 * `request(descriptor, params)` and `handle(descriptor, handler)`.
 */
export interface McpRequestDescriptor<
  Method extends string = string,
  Params extends z.ZodType = z.ZodType,
  Result extends z.ZodType = z.ZodType,
  Direction extends MethodDirection = MethodDirection,
> {
  /** Always `"request"`. */
  readonly kind: "request";
  /** The JSON-RPC method name. */
  readonly method: Method;
  /** Schema of `params` (optional-params methods accept `undefined`). */
  readonly params: Params;
  /** Schema of `result`. */
  readonly result: Result;
  /** Who sends the request in this revision. */
  readonly direction: Direction;
  /** The revision these schemas belong to. */
  readonly revision: ProtocolVersion;
  /** Every revision that defines this method. */
  readonly revisions: readonly ProtocolVersion[];
}

/** A notification method of one revision, usable by jsonrpc-core's `notify`/`handleNotification`. */
export interface McpNotificationDescriptor<
  Method extends string = string,
  Params extends z.ZodType = z.ZodType,
  Direction extends MethodDirection = MethodDirection,
> {
  /** Always `"notification"`. */
  readonly kind: "notification";
  /** The JSON-RPC method name. */
  readonly method: Method;
  /** Schema of `params` (optional-params notifications accept `undefined`). */
  readonly params: Params;
  /** Who sends the notification in this revision. */
  readonly direction: Direction;
  /** The revision these schemas belong to. */
  readonly revision: ProtocolVersion;
  /** Every revision that defines this method. */
  readonly revisions: readonly ProtocolVersion[];
}

/** A request or notification descriptor. */
export type McpMethodDescriptor = McpRequestDescriptor | McpNotificationDescriptor;

/** The direction the method table gives a method (any direction for a method outside it). */
export type TableDirection<Method extends string> = Method extends McpMethod
  ? (typeof METHOD_TABLE)[Method]["direction"]
  : MethodDirection;

/** Builds the request descriptor of `method` in `revision`; direction defaults to the table's. */
export function defineRequestDescriptor<
  const Method extends McpMethod,
  Params extends z.ZodType,
  Result extends z.ZodType,
  const Direction extends MethodDirection = TableDirection<Method>,
>(
  revision: ProtocolVersion,
  method: Method,
  params: Params,
  result: Result,
  direction?: Direction,
): McpRequestDescriptor<Method, Params, Result, Direction> {
  return {
    kind: "request",
    method,
    params,
    result,
    direction: direction ?? (METHOD_TABLE[method].direction as Direction),
    revision,
    revisions: METHOD_TABLE[method].revisions,
  };
}

/**
 * Builds the notification descriptor of `method` in `revision`; direction and revisions default to
 * the table's (a method outside the table, such as the bare `initialized` alias, passes both).
 */
export function defineNotificationDescriptor<
  const Method extends string,
  Params extends z.ZodType,
  const Direction extends MethodDirection = TableDirection<Method>,
>(
  revision: ProtocolVersion,
  method: Method,
  params: Params,
  direction?: Direction,
  revisions?: readonly ProtocolVersion[],
): McpNotificationDescriptor<Method, Params, Direction> {
  const info = Object.hasOwn(METHOD_TABLE, method) ? METHOD_TABLE[method as McpMethod] : undefined;
  return {
    kind: "notification",
    method,
    params,
    direction: direction ?? ((info?.direction ?? "both") as Direction),
    revision,
    revisions: revisions ?? info?.revisions ?? [],
  };
}
