import { z } from "zod";
import { defineNotificationSchema, defineRequestSchema } from "../shared/define.js";
import type { McpMethodDescriptor } from "./method-descriptor.js";

type FromClient = "client-to-server" | "both";
type FromServer = "server-to-client" | "both";

/** The descriptors of `Methods` of one kind sent in one direction. */
type Sent<Methods, Kind extends "request" | "notification", Direction> = {
  [Key in keyof Methods]: Methods[Key] extends { kind: Kind; direction: infer Actual }
    ? Actual extends Direction
      ? Methods[Key]
      : never
    : never;
}[keyof Methods];

/*
 * The message types below read the descriptors' properties with plain `infer` instead of matching
 * `McpRequestDescriptor<..., z.ZodType, ...>`: that match compared every schema of a revision with
 * `z.ZodType` member by member, which was most of what a consumer's compiler spent on this package
 * (about 190 MB of 508 for the root entry). The types are the same: what `defineRequestSchema` (a
 * loose object) outputs, pinned by test/message-unions.test.ts.
 */

/** The output of the loose `{ method, params }` object `defineRequestSchema` builds. */
type MethodMessage<Method, Params> = z.core.$InferObjectOutput<
  { method: z.ZodLiteral<Method & string>; params: Params },
  z.core.$loose["out"]
>;

/** The `{ method, params }` message a request descriptor describes. */
type RequestMessage<Descriptor> = Descriptor extends {
  readonly kind: "request";
  readonly method: infer Method;
  readonly params: infer Params;
}
  ? MethodMessage<Method, Params>
  : never;

/** The `{ method, params }` message a notification descriptor describes. */
type NotificationMessage<Descriptor> = Descriptor extends {
  readonly kind: "notification";
  readonly method: infer Method;
  readonly params: infer Params;
}
  ? MethodMessage<Method, Params>
  : never;

/** The result a request descriptor describes. */
type ResultOf<Descriptor> = Descriptor extends {
  readonly kind: "request";
  readonly result: infer Result;
}
  ? z.output<Result>
  : never;

function unionOf(schemas: z.ZodType[]): z.ZodType {
  if (schemas.length === 0) return z.never();
  if (schemas.length === 1) return schemas[0] as z.ZodType;
  return z.union(schemas as [z.ZodType, z.ZodType, ...z.ZodType[]]);
}

function byMethod(schemas: z.ZodObject[]): z.ZodType {
  if (schemas.length === 0) return z.never();
  return z.discriminatedUnion("method", schemas as [z.ZodObject, ...z.ZodObject[]]);
}

/**
 * The unions `createMessageUnions` returns for `Methods`. Revisions annotate their exports with it,
 * so that declaration files refer to this type instead of spelling out every message (which made
 * the published declarations megabytes long).
 */
export interface MessageUnions<Methods> {
  ClientRequestSchema: z.ZodType<RequestMessage<Sent<Methods, "request", FromClient>>>;
  ServerRequestSchema: z.ZodType<RequestMessage<Sent<Methods, "request", FromServer>>>;
  ClientNotificationSchema: z.ZodType<
    NotificationMessage<Sent<Methods, "notification", FromClient>>
  >;
  ServerNotificationSchema: z.ZodType<
    NotificationMessage<Sent<Methods, "notification", FromServer>>
  >;
  ClientResultSchema: z.ZodType<ResultOf<Sent<Methods, "request", FromServer>>>;
  ServerResultSchema: z.ZodType<ResultOf<Sent<Methods, "request", FromClient>>>;
}

/**
 * The per-direction unions of one revision, from its descriptors: every request and notification
 * a client (or server) sends, discriminated by `method`, and every result it answers with (a plain
 * union: an empty result matches any object, as in the official SDK).
 */
export function createMessageUnions<Methods extends Record<string, McpMethodDescriptor>>(
  methods: Methods,
): MessageUnions<Methods> {
  const descriptors = Object.values(methods);
  const sentBy = (kind: "request" | "notification", sender: "client" | "server") =>
    descriptors.filter(
      (descriptor) =>
        descriptor.kind === kind &&
        (descriptor.direction === "both" ||
          descriptor.direction === (sender === "client" ? "client-to-server" : "server-to-client")),
    );
  const requests = (sender: "client" | "server") =>
    byMethod(
      sentBy("request", sender).map((descriptor) =>
        defineRequestSchema(descriptor.method, descriptor.params),
      ),
    );
  const notifications = (sender: "client" | "server") =>
    byMethod(
      sentBy("notification", sender).map((descriptor) =>
        defineNotificationSchema(descriptor.method, descriptor.params),
      ),
    );
  const results = (sender: "client" | "server") =>
    unionOf(
      sentBy("request", sender === "client" ? "server" : "client").map((descriptor) =>
        descriptor.kind === "request" ? descriptor.result : z.never(),
      ),
    );
  return {
    ClientRequestSchema: requests("client") as z.ZodType<
      RequestMessage<Sent<Methods, "request", FromClient>>
    >,
    ServerRequestSchema: requests("server") as z.ZodType<
      RequestMessage<Sent<Methods, "request", FromServer>>
    >,
    ClientNotificationSchema: notifications("client") as z.ZodType<
      NotificationMessage<Sent<Methods, "notification", FromClient>>
    >,
    ServerNotificationSchema: notifications("server") as z.ZodType<
      NotificationMessage<Sent<Methods, "notification", FromServer>>
    >,
    ClientResultSchema: results("client") as z.ZodType<
      ResultOf<Sent<Methods, "request", FromServer>>
    >,
    ServerResultSchema: results("server") as z.ZodType<
      ResultOf<Sent<Methods, "request", FromClient>>
    >,
  };
}
