/* Revision 2025-11-25: unchanged from 2025-06-18. */
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
} from "../2025-06-18/roots.js";
