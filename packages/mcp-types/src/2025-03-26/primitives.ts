/* Primitive types every revision shares (defined once in shared/primitives.ts). */
export {
  type Cursor,
  CursorSchema,
  type LoggingLevel,
  LoggingLevelSchema,
  type ProgressToken,
  ProgressTokenSchema,
  type RequestId,
  RequestIdSchema,
  type Role,
  RoleSchema,
} from "../shared/primitives.js";
