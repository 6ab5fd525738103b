import type { z } from "zod";
import { createMessageUnions, type MessageUnions } from "../methods/create-message-unions.js";
import { methods } from "./methods.js";

/* Revision 2026-07-28: every message by sender, built from this revision's descriptors. Modern servers send no requests (input requests travel inside results), so ServerRequest and ClientResult are never. */

type Unions = MessageUnions<typeof methods>;
const unions: Unions = createMessageUnions(methods);

/** Any request a client sends (discriminated by `method`). */
export const ClientRequestSchema: Unions["ClientRequestSchema"] = unions.ClientRequestSchema;
/** Any request a client sends. */
export type ClientRequest = z.infer<typeof ClientRequestSchema>;

/** Any request a server sends. */
export const ServerRequestSchema: Unions["ServerRequestSchema"] = unions.ServerRequestSchema;
/** Any request a server sends. */
export type ServerRequest = z.infer<typeof ServerRequestSchema>;

/** Any notification a client sends. */
export const ClientNotificationSchema: Unions["ClientNotificationSchema"] =
  unions.ClientNotificationSchema;
/** Any notification a client sends. */
export type ClientNotification = z.infer<typeof ClientNotificationSchema>;

/** Any notification a server sends. */
export const ServerNotificationSchema: Unions["ServerNotificationSchema"] =
  unions.ServerNotificationSchema;
/** Any notification a server sends. */
export type ServerNotification = z.infer<typeof ServerNotificationSchema>;

/** Any result a client answers a server request with. */
export const ClientResultSchema: Unions["ClientResultSchema"] = unions.ClientResultSchema;
/** Any result a client answers with. */
export type ClientResult = z.infer<typeof ClientResultSchema>;

/** Any result a server answers a client request with. */
export const ServerResultSchema: Unions["ServerResultSchema"] = unions.ServerResultSchema;
/** Any result a server answers with. */
export type ServerResult = z.infer<typeof ServerResultSchema>;
