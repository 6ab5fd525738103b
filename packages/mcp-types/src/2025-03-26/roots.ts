/* Revision 2025-03-26: unchanged from 2024-11-05. */
export {
  type ListRootsRequest,
  ListRootsRequestParamsSchema,
  ListRootsRequestSchema,
  type ListRootsResult,
  ListRootsResultSchema,
  type Root,
  RootSchema,
  type RootsListChangedNotification,
  RootsListChangedNotificationSchema,
} from "../2024-11-05/roots.js";
