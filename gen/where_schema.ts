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
import type { WhereOp } from "../runtime/graph.ts";
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
            not: { type: self, description: "Matches what the given predicates do not match." },
            and: { type: list(self), description: "Matches what every given object matches." },
            or: { type: list(self), description: "Matches what any given object matches." },
          };
          for (const field of where.fields) {
            const value = field.graphqlType === "ID" ? GraphQLID : input(field.graphqlType);
            whereOps(field).forEach((op) => {
              fields[predicateName(field.name, op)] = {
                type: op === "IsNil" || op === "NotNil"
                  ? GraphQLBoolean
                  : op === "In" || op === "NotIn"
                  ? list(value)
                  : value,
                description: predicateDescription(field.name, op),
              };
            });
          }
          for (const edge of where.edges) {
            fields[hasPredicateName(edge.name)] = {
              type: GraphQLBoolean,
              description:
                `${edge.name} edge predicates: \`true\` when it has any, \`false\` when none.`,
            };
            if (edge.with) {
              fields[hasPredicateName(edge.name, true)] = {
                type: list(inputs.get(edge.target)!),
                description: `Has ${edge.name} matching any of the given objects.`,
              };
            }
          }
          return fields;
        },
      }),
    );
  }
  return inputs;
}

/** What the predicate `op` of `field` matches, as its description. */
function predicateDescription(field: string, op: WhereOp): string {
  switch (op) {
    case "EQ":
      return `${field} field predicates: equal to the value.`;
    case "NEQ":
      return `${field} is not equal to the value.`;
    case "In":
      return `${field} is one of the values.`;
    case "NotIn":
      return `${field} is none of the values.`;
    case "GT":
      return `${field} is greater than the value.`;
    case "GTE":
      return `${field} is greater than or equal to the value.`;
    case "LT":
      return `${field} is less than the value.`;
    case "LTE":
      return `${field} is less than or equal to the value.`;
    case "Contains":
      return `${field} contains the value (case-sensitive).`;
    case "HasPrefix":
      return `${field} starts with the value.`;
    case "HasSuffix":
      return `${field} ends with the value.`;
    case "EqualFold":
      return `${field} is equal to the value, ignoring case.`;
    case "ContainsFold":
      return `${field} contains the value, ignoring case.`;
    case "IsNil":
      return `${field} is null.`;
    case "NotNil":
      return `${field} is not null.`;
  }
}
