/**
 * Step 4a: the SDL of a Model, built with graphql-js type constructors and printed with
 * `printSchema` (never by concatenating SDL strings).
 *
 * @module
 */
import {
  GraphQLBoolean,
  GraphQLEnumType,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  GraphQLFloat,
  GraphQLID,
  GraphQLInputObjectType,
  type GraphQLInputType,
  GraphQLInt,
  GraphQLInterfaceType,
  GraphQLList,
  type GraphQLNamedType,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLOutputType,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
  printSchema,
} from "graphql";
import {
  connectionName,
  edgeName,
  embeddableInputName,
  orderFieldName,
  orderName,
} from "../runtime/names.ts";
import type { Model, ModelField, ModelType } from "./model.ts";
import { buildMutationTypes } from "./mutation_schema.ts";
import { buildWhereInputTypes } from "./where_schema.ts";

const nonNull = <T extends GraphQLOutputType>(t: T) => new GraphQLNonNull(t);

/**
 * Builds the `GraphQLSchema` of `model` (types only; resolvers are attached at runtime).
 */
export function buildSchema(model: Model): GraphQLSchema {
  const scalars: Record<string, GraphQLScalarType> = {
    Int: GraphQLInt,
    Float: GraphQLFloat,
    String: GraphQLString,
    Boolean: GraphQLBoolean,
  };
  const scalar = (name: string) =>
    scalars[name] ??= new GraphQLScalarType({
      name,
      description: SCALAR_DESCRIPTIONS[name],
    });
  const cursor = scalar("Cursor");
  const enums = new Map(model.enums.map((e) => [
    e.name,
    new GraphQLEnumType({
      name: e.name,
      values: Object.fromEntries(
        e.values.map((v) => [v.name, { value: v.name }]),
      ),
    }),
  ]));
  const node = new GraphQLInterfaceType({
    name: "Node",
    description: "An object with a globally unique ID (Relay Global Object Identification).",
    fields: {
      id: { type: nonNull(GraphQLID), description: "The ID of the object." },
    },
  });
  const pageInfo = new GraphQLObjectType({
    name: "PageInfo",
    description: "Information about pagination in a connection (Relay Cursor Connections).",
    fields: {
      hasNextPage: {
        type: nonNull(GraphQLBoolean),
        description: "When paginating forwards, are there more items?",
      },
      hasPreviousPage: {
        type: nonNull(GraphQLBoolean),
        description: "When paginating backwards, are there more items?",
      },
      startCursor: {
        type: cursor,
        description: "When paginating backwards, the cursor to continue.",
      },
      endCursor: {
        type: cursor,
        description: "When paginating forwards, the cursor to continue.",
      },
    },
  });
  const direction = new GraphQLEnumType({
    name: "OrderDirection",
    description:
      "Possible directions in which to order a list of items when provided an `orderBy` argument.",
    values: {
      ASC: {
        value: "ASC",
        description: "Specifies an ascending order for a given `orderBy` argument.",
      },
      DESC: {
        value: "DESC",
        description: "Specifies a descending order for a given `orderBy` argument.",
      },
    },
  });

  const outputOf = (f: ModelField): GraphQLOutputType => {
    const named = f.embedded
      ? embeddedObjects.get(f.embedded)!
      : f.enum
      ? enums.get(f.enum)!
      : scalar(f.graphqlType);
    const base = f.list ? new GraphQLList(nonNull(named)) : named;
    return f.nullable ? base : nonNull(base);
  };
  const embeddedObjects = new Map<string, GraphQLObjectType>();
  const embeddedInputs = new Map<string, GraphQLInputObjectType>();
  for (const e of model.embeddables ?? []) {
    embeddedObjects.set(
      e.name,
      new GraphQLObjectType({
        name: e.name,
        fields: () =>
          Object.fromEntries(
            e.fields.map((f) => [f.name, { type: outputOf(f), description: f.description }]),
          ),
      }),
    );
    embeddedInputs.set(
      e.inputName,
      new GraphQLInputObjectType({
        name: e.inputName,
        description: `Input of the embeddable ${e.name}.`,
        fields: () =>
          Object.fromEntries(e.fields.map((f) => {
            const named: GraphQLInputType = f.embedded
              ? embeddedInputs.get(embeddableInputName(f.embedded))!
              : f.enum
              ? enums.get(f.enum)!
              : scalar(f.graphqlType);
            const list = f.list ? new GraphQLList(new GraphQLNonNull(named)) : named;
            return [f.name, { type: f.optional ? list : new GraphQLNonNull(list) }];
          })),
      }),
    );
  }
  const objects = new Map<string, GraphQLObjectType | GraphQLInterfaceType>();
  const connections = new Map<string, GraphQLObjectType>();
  const orders = new Map<string, GraphQLInputObjectType>();
  const named: GraphQLNamedType[] = [];
  for (const type of model.types) {
    const edge = new GraphQLObjectType({
      name: edgeName(type.name),
      description: "An edge in a connection.",
      fields: () => ({
        node: {
          type: objects.get(type.name)!,
          description: "The item at the end of the edge.",
        },
        cursor: {
          type: nonNull(cursor),
          description: "A cursor for use in pagination.",
        },
      }),
    });
    connections.set(
      type.name,
      new GraphQLObjectType({
        name: connectionName(type.name),
        description: "A connection to a list of items.",
        fields: {
          edges: {
            type: new GraphQLList(edge),
            description: "A list of edges.",
          },
          pageInfo: {
            type: nonNull(pageInfo),
            description: "Information to aid in pagination.",
          },
          totalCount: {
            type: nonNull(GraphQLInt),
            description: "Identifies the total count of items in the connection.",
          },
        },
      }),
    );
    if (type.orderFields.length > 0) {
      const orderField = new GraphQLEnumType({
        name: orderFieldName(type.name),
        description: `Properties by which ${type.name} connections can be ordered.`,
        values: Object.fromEntries(
          type.orderFields.map((o) => [o.name, { value: o.name }]),
        ),
      });
      orders.set(
        type.name,
        new GraphQLInputObjectType({
          name: orderName(type.name),
          description: `Ordering options for ${type.name} connections`,
          fields: {
            direction: {
              type: new GraphQLNonNull(direction),
              defaultValue: "ASC",
              description: `The ordering direction.`,
            },
            field: {
              type: new GraphQLNonNull(orderField),
              description: `The field by which to order ${type.name}s.`,
            },
          },
        }),
      );
    }
  }
  const wheres = buildWhereInputTypes(model, (name) => enums.get(name) ?? scalar(name));
  const connectionArgs = (type: ModelType): GraphQLFieldConfigArgumentMap => {
    const args: GraphQLFieldConfigArgumentMap = {
      after: {
        type: cursor,
        description: "Returns the elements in the list that come after the specified cursor.",
      },
      first: {
        type: GraphQLInt,
        description: "Returns the first _n_ elements from the list.",
      },
      before: {
        type: cursor,
        description: "Returns the elements in the list that come before the specified cursor.",
      },
      last: {
        type: GraphQLInt,
        description: "Returns the last _n_ elements from the list.",
      },
    };
    const order = orders.get(type.name);
    if (order) {
      args.orderBy = {
        type: type.multiOrder ? new GraphQLList(new GraphQLNonNull(order)) : order,
        description: `Ordering options for ${type.name}s returned from the connection.`,
      };
    }
    const where = wheres.get(type.name);
    if (where) {
      args.where = {
        type: where,
        description: `Filtering options for ${type.name}s returned from the connection.`,
      };
    }
    return args;
  };
  for (const type of model.types) {
    const config = {
      name: type.name,
      description: type.description,
      // An inheritance root is an interface; its concrete classes implement it.
      interfaces: () =>
        type.implements ? [node, objects.get(type.implements) as GraphQLInterfaceType] : [node],
      fields: () => {
        const fields: GraphQLFieldConfigMap<unknown, unknown> = {
          id: { type: nonNull(GraphQLID) },
        };
        for (const f of type.fields) {
          fields[f.name] = { type: outputOf(f), description: f.description };
        }
        for (const e of type.edges) {
          const target = model.types.find((t) => t.name === e.target)!;
          if (e.unique) {
            const object = objects.get(e.target)!;
            fields[e.name] = { type: e.nullable ? object : nonNull(object) };
          } else if (e.connection) {
            fields[e.name] = {
              type: nonNull(connections.get(e.target)!),
              args: connectionArgs(target),
            };
          } else {
            fields[e.name] = {
              type: new GraphQLList(nonNull(objects.get(e.target)!)),
            };
          }
        }
        return fields;
      },
    };
    objects.set(
      type.name,
      type.abstract ? new GraphQLInterfaceType(config) : new GraphQLObjectType(config),
    );
  }
  const query = new GraphQLObjectType({
    name: "Query",
    fields: () => {
      const fields: GraphQLFieldConfigMap<unknown, unknown> = {
        node: {
          type: node,
          description: "Fetches an object given its ID.",
          args: {
            id: { type: nonNull(GraphQLID), description: "ID of the object." },
          },
        },
        nodes: {
          type: nonNull(new GraphQLList(node)),
          description: "Lookup nodes by a list of IDs.",
          args: {
            ids: {
              type: nonNull(new GraphQLList(nonNull(GraphQLID))),
              description: "The list of node IDs.",
            },
          },
        },
      };
      for (const type of model.types) {
        if (!type.queryField) continue;
        fields[type.queryField] = {
          type: nonNull(connections.get(type.name)!),
          args: connectionArgs(type),
        };
      }
      return fields;
    },
  });
  named.push(node, cursor, pageInfo, direction);
  for (const type of model.types) {
    named.push(objects.get(type.name)!, connections.get(type.name)!);
    const order = orders.get(type.name);
    if (order) named.push(order);
    const where = wheres.get(type.name);
    if (where) named.push(where);
  }
  named.push(...enums.values(), ...embeddedObjects.values(), ...embeddedInputs.values());
  const mutations = buildMutationTypes(model, {
    input: (name) => enums.get(name) ?? embeddedInputs.get(name) ?? scalar(name),
    object: (name) => objects.get(name) as GraphQLObjectType,
  });
  named.push(...mutations.inputs);
  return new GraphQLSchema({ query, mutation: mutations.mutation, types: named });
}

/** The SDL of `model`, as written to `schema.graphql`. */
export function printModelSchema(model: Model): string {
  return printSchema(buildSchema(model));
}

const SCALAR_DESCRIPTIONS: Record<string, string> = {
  Cursor: "An opaque cursor for pagination.",
  Time: "An RFC 3339 date-time string, e.g. 2026-01-02T03:04:05.678Z.",
  BigInt: "A 64-bit integer, as a decimal string.",
  JSON: "Any JSON value.",
};
