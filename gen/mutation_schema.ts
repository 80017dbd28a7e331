/**
 * The mutation part of the SDL, built with graphql-js: `Create<T>Input`, `Update<T>Input` and the
 * `Mutation` type with `create<T>(input: Create<T>Input!): <T>!`,
 * `update<T>(id: ID!, input: Update<T>Input!): <T>!` and `delete<T>(id: ID!): ID!`.
 *
 * @module
 */
import {
  type GraphQLEnumType,
  type GraphQLFieldConfigMap,
  GraphQLID,
  GraphQLInputObjectType,
  type GraphQLInputType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLScalarType,
} from "graphql";
import { withArticle } from "./english.ts";
import type { Model, ModelMutationInput, ModelMutationInputField } from "./model.ts";

/** How the mutation types reach the rest of the schema. */
export interface MutationTypeLookup {
  /** The named input type (a scalar, an enum or an embeddable's input) of a GraphQL type name. */
  input(name: string): GraphQLScalarType | GraphQLEnumType | GraphQLInputObjectType;
  /** The object type of a node type. */
  object(name: string): GraphQLObjectType;
}

/** The `Mutation` type (absent when no type has mutations) and the input types it takes. */
export interface MutationTypes {
  mutation?: GraphQLObjectType;
  inputs: GraphQLInputObjectType[];
}

/** Builds the mutation types of `model`, in the order of its types: create, update, delete. */
export function buildMutationTypes(model: Model, lookup: MutationTypeLookup): MutationTypes {
  const inputs: GraphQLInputObjectType[] = [];
  const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
  const id = { type: new GraphQLNonNull(GraphQLID), description: "ID of the object." };
  for (const type of model.types) {
    const { create, update, delete: remove } = type.mutations ?? {};
    const node = new GraphQLNonNull(lookup.object(type.name));
    if (create) {
      const input = inputObject(create, lookup, `Input of \`${create.field}\`.`);
      inputs.push(input);
      fields[create.field] = {
        type: node,
        description: `Creates ${withArticle(type.name)} and returns it.`,
        args: {
          input: { type: new GraphQLNonNull(input), description: `The new ${type.name}.` },
        },
      };
    }
    if (update) {
      const input = inputObject(
        update,
        lookup,
        `Input of \`${update.field}\`: only the fields given change; applied in the order clear, set, add/remove.`,
      );
      inputs.push(input);
      fields[update.field] = {
        type: node,
        description: `Updates the ${type.name} with the given ID and returns it.`,
        args: {
          id,
          input: { type: new GraphQLNonNull(input), description: "The changes." },
        },
      };
    }
    if (remove) {
      fields[remove.field] = {
        type: new GraphQLNonNull(GraphQLID),
        description: `Deletes the ${type.name} with the given ID and returns the ID.`,
        args: { id },
      };
    }
  }
  if (Object.keys(fields).length === 0) return { inputs };
  const mutation = new GraphQLObjectType({
    name: "Mutation",
    description: "The root of every mutation: each runs in one transaction (the Transactioner).",
    fields,
  });
  return { mutation, inputs };
}

function inputObject(
  input: ModelMutationInput,
  lookup: MutationTypeLookup,
  description: string,
): GraphQLInputObjectType {
  return new GraphQLInputObjectType({
    name: input.name,
    description,
    fields: Object.fromEntries(input.fields.map((f) => {
      const named = f.graphqlType === "ID" ? GraphQLID : lookup.input(f.graphqlType);
      let type: GraphQLInputType = f.list ? new GraphQLList(new GraphQLNonNull(named)) : named;
      if (f.required) type = new GraphQLNonNull(type);
      return [f.name, { type, description: inputFieldDescription(f) }];
    })),
  });
}

/** What an input field does, as its description. */
function inputFieldDescription(f: ModelMutationInputField): string {
  const what = f.kind === "field" ? f.prop : `the ${f.prop} edge`;
  switch (f.op) {
    case "set":
      return f.kind === "field" ? `Sets ${f.prop}.` : `Sets ${what} by global ID.`;
    case "clear":
      return f.kind === "edges" ? `Removes every node of ${what}.` : `Sets ${what} to null.`;
    case "add":
      return `Adds nodes to ${what} by global ID.`;
    case "remove":
      return `Removes nodes from ${what} by global ID.`;
  }
}
