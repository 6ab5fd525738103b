import { z } from "zod";

/**
 * The `{ method, params }` schema of a request. Objects are loose so that fields this package does
 * not know (for example those of a newer revision) pass through a gateway untouched.
 */
export function defineRequestSchema<const Method extends string, Params extends z.ZodType>(
  method: Method,
  params: Params,
) {
  return z.looseObject({ method: z.literal(method), params });
}

/** The `{ method, params }` schema of a notification (loose like every object of this package). */
export function defineNotificationSchema<const Method extends string, Params extends z.ZodType>(
  method: Method,
  params: Params,
) {
  return z.looseObject({ method: z.literal(method), params });
}

/**
 * A schema's own type, for naming it: `export interface XSchemaType extends SchemaType<typeof
 * xSchema> {}` and `export const XSchema: XSchemaType = xSchema`. Declarations then refer to the
 * interface by name wherever another schema embeds this one, instead of repeating its whole
 * inferred type; that keeps the `.d.ts` files small and a consumer's compiler memory low.
 */
export type SchemaType<Schema> = Schema;
