/**
 * The schema graphql-jit compiles against (`jit.ts`): a copy of the served schema in which each
 * node type's `id` field whose resolver is mikrogql's own global-id resolver
 * (`resolve/global_id_fields.ts`, for a key that is the single property `id`) has no resolver and
 * a scalar type of its own (`MikrogqlGlobalId_<Type>`, nullable as the field is) whose
 * serializer makes the global id from the row's `id` property. graphql-jit then reads the field
 * as a leaf, `row.id`, serialized, instead of a deferred resolver call with a resolve info, a
 * response path and an arguments object per node. The answer is the same text; the served
 * schema (introspection, validation, graphql-js execution) is untouched.
 *
 * Resolvers run by the compiled query see the copy as `info.schema`, `info.parentType` and
 * `info.returnType`: the same names, fields, field order and resolvers (every type is recreated
 * by graphql-tools' `mapSchema`; an input object's fields keep their order, so a where input's
 * predicates are coerced, and its SQL written, in the order graphql-js gives them; coercion
 * methods set on a type instance, as `graphql_schema.ts` sets the generated enums' `parseValue`,
 * are set on the copy's too).
 *
 * @module
 */
import {
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  type GraphQLSchema,
  isNonNullType,
} from "graphql";
import { mapSchema } from "@graphql-tools/utils";
import { globalIdSerialization } from "../resolve/global_id_fields.ts";

const COPIES = new WeakMap<GraphQLSchema, GraphQLSchema>();
const COERCIONS = ["serialize", "parseValue", "parseLiteral"] as const;

/**
 * The schema graphql-jit compiles `schema`'s operations against: the copy described in the
 * module documentation, made once per schema; `schema` itself when no field qualifies.
 */
export function jitSchema(schema: GraphQLSchema): GraphQLSchema {
  let copy = COPIES.get(schema);
  if (!copy) COPIES.set(schema, copy = leafGlobalIds(schema));
  return copy;
}

function leafGlobalIds(schema: GraphQLSchema): GraphQLSchema {
  const qualifies = (type: unknown) =>
    type instanceof GraphQLObjectType &&
    globalIdSerialization(type.getFields().id?.resolve) !== undefined;
  if (!Object.values(schema.getTypeMap()).some(qualifies)) return schema;
  const copy = mapSchema(schema, {});
  // A type's own coercion set on the instance after the schema was built (the generated enums'
  // `parseValue`, whose bad values are BAD_USER_INPUT) is not in its config: kept on the copy.
  for (const [name, original] of Object.entries(schema.getTypeMap())) {
    const copied = copy.getType(name) as Record<string, unknown> | undefined;
    for (const method of COERCIONS) {
      if (copied && Object.hasOwn(original, method)) {
        copied[method] = (original as unknown as Record<string, unknown>)[method];
      }
    }
  }
  for (const type of Object.values(copy.getTypeMap())) {
    if (!(type instanceof GraphQLObjectType)) continue;
    const field = type.getFields().id;
    const serialization = globalIdSerialization(field?.resolve);
    if (!field || !serialization) continue;
    const scalar = new GraphQLScalarType({
      name: `MikrogqlGlobalId_${type.name}`,
      serialize: serialization.serialize,
    });
    // The copy's own field object: the served schema's is another one.
    field.type = isNonNullType(field.type) ? new GraphQLNonNull(scalar) : scalar;
    field.resolve = undefined;
  }
  return copy;
}
