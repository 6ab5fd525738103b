/* Revision 2025-03-26: unchanged from 2024-11-05. */
export {
  RootSchema,
  ListRootsRequestSchema,
  ListRootsResultSchema,
  RootsListChangedNotificationSchema,
  ListRootsRequestParamsSchema,
  type Root,
  type ListRootsRequest,
  type ListRootsResult,
  type RootsListChangedNotification,
} from "../2024-11-05/roots.js";
