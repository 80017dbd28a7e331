/**
 * The filter part of the SDL, built with graphql-js: one `<T>WhereInput` per type, laid out as
 * entgql lays it out (`not`, `and`, `or`, then each property's predicates under a
 * "`<field>` field predicates" description, then each edge's `has<Edge>`/`has<Edge>With`).
 *
 * @module
 */
import {
  GraphQLBoolean,
  type GraphQLEnumType,
  GraphQLID,
  type GraphQLInputFieldConfigMap,
  GraphQLInputObjectType,
  type GraphQLInputType,
  GraphQLList,
  GraphQLNonNull,
  type GraphQLScalarType,
} from "graphql";
import { hasPredicateName, predicateName } from "../runtime/names.ts";
import { whereOps } from "../runtime/plan/where_filter.ts";
import type { Model } from "./model.ts";

/**
 * Builds the `<T>WhereInput` types of `model`.
 *
 * @param input the named input type (a scalar or an enum) of a GraphQL type name
 * @returns GraphQL type name -> its where input, in the order of the model's types
 */
export function buildWhereInputTypes(
  model: Model,
  input: (name: string) => GraphQLScalarType | GraphQLEnumType,
): Map<string, GraphQLInputObjectType> {
  const inputs = new Map<string, GraphQLInputObjectType>();
  for (const type of model.types) {
    const where = type.where;
    if (!where) continue;
    inputs.set(
      type.name,
      new GraphQLInputObjectType({
        name: where.name,
        description:
          `${where.name} is used for filtering ${type.name} objects: predicates in one object are ANDed.`,
        fields: () => {
          const self = inputs.get(type.name)!;
          const list = (t: GraphQLInputType) => new GraphQLList(new GraphQLNonNull(t));
          const fields: GraphQLInputFieldConfigMap = {
            not: { type: self },
            and: { type: list(self) },
            or: { type: list(self) },
          };
          for (const field of where.fields) {
            const value = field.graphqlType === "ID" ? GraphQLID : input(field.graphqlType);
            whereOps(field).forEach((op, i) => {
              fields[predicateName(field.name, op)] = {
                type: op === "IsNil" || op === "NotNil"
                  ? GraphQLBoolean
                  : op === "In" || op === "NotIn"
                  ? list(value)
                  : value,
                description: i === 0 ? `${field.name} field predicates` : undefined,
              };
            });
          }
          for (const edge of where.edges) {
            fields[hasPredicateName(edge.name)] = {
              type: GraphQLBoolean,
              description: `${edge.name} edge predicates`,
            };
            if (edge.with) {
              fields[hasPredicateName(edge.name, true)] = { type: list(inputs.get(edge.target)!) };
            }
          }
          return fields;
        },
      }),
    );
  }
  return inputs;
}
