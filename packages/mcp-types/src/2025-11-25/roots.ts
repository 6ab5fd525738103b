/* Revision 2025-11-25: unchanged from 2025-06-18. */
export {
  RootSchema,
  ListRootsResultSchema,
  type Root,
  type ListRootsResult,
  ListRootsRequestSchema,
  RootsListChangedNotificationSchema,
  ListRootsRequestParamsSchema,
  type ListRootsRequest,
  type RootsListChangedNotification,
} from "../2025-06-18/roots.js";
