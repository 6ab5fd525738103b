import type { z } from "zod";
import type { ProtocolVersion } from "../versions.js";
import {
  defineNotificationDescriptor,
  defineRequestDescriptor,
  type McpMethodDescriptor,
  type McpNotificationDescriptor,
  type McpRequestDescriptor,
  type TableDirection,
} from "./method-descriptor.js";
import type { McpMethod, MethodDirection } from "./method-table.js";

/**
 * For one method: the names of the schemas (exported by the revision's `schemas.ts`) of its params
 * and, for a request, its result; `direction` when the revision differs from the method table.
 */
export interface MethodSchemaNames {
  /** Name of the params schema. */
  readonly params: string;
  /** Name of the result schema (requests only). */
  readonly result?: string;
  /** Who sends it in this revision, when that differs from METHOD_TABLE. */
  readonly direction?: MethodDirection;
}

/** The methods of one revision and the names of their schemas. */
export type MethodSchemaTable = Partial<Record<McpMethod, MethodSchemaNames>>;

type SchemaIn<Schemas, Name> = Name extends keyof Schemas
  ? Extract<Schemas[Name], z.ZodType>
  : never;

type DirectionOf<Entry, Method extends string> = Entry extends {
  direction: infer Direction extends MethodDirection;
}
  ? Direction
  : TableDirection<Method>;

/**
 * The descriptors `createMethods` builds, typed from the table and the revision's schema module
 * (a named type, so declaration files refer to it instead of spelling every schema out).
 */
export type MethodsFromTable<Table extends MethodSchemaTable, Schemas> = {
  readonly [Method in keyof Table & string]: Table[Method] extends {
    params: infer Params;
    result: infer Result;
  }
    ? McpRequestDescriptor<
        Method,
        SchemaIn<Schemas, Params>,
        SchemaIn<Schemas, Result>,
        DirectionOf<Table[Method], Method>
      >
    : Table[Method] extends { params: infer Params }
      ? McpNotificationDescriptor<
          Method,
          SchemaIn<Schemas, Params>,
          DirectionOf<Table[Method], Method>
        >
      : never;
};

/** Builds the descriptors of one revision from its method table and its schema module. */
export function createMethods<const Table extends MethodSchemaTable, Schemas extends object>(
  revision: ProtocolVersion,
  table: Table,
  schemas: Schemas,
): MethodsFromTable<Table, Schemas> {
  const lookup = (name: string): z.ZodType => {
    const schema = (schemas as Record<string, unknown>)[name];
    if (schema === undefined) throw new Error(`${revision}: no schema named ${name}`);
    return schema as z.ZodType;
  };
  const methods: Record<string, McpMethodDescriptor> = {};
  for (const [method, names] of Object.entries(table) as [McpMethod, MethodSchemaNames][]) {
    methods[method] =
      names.result === undefined
        ? defineNotificationDescriptor(revision, method, lookup(names.params), names.direction)
        : defineRequestDescriptor(
            revision,
            method,
            lookup(names.params),
            lookup(names.result),
            names.direction,
          );
  }
  return methods as MethodsFromTable<Table, Schemas>;
}
