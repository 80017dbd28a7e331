/**
 * Step 4a: the schema of a Model, built with graphql-js type constructors (`generate` prints it
 * with `printSchema`, never by concatenating SDL strings).
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
  type GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
} from "graphql";
import {
  CHANGE_OPERATION,
  changeEventName,
  connectionName,
  edgeName,
  embeddableInputName,
  orderFieldName,
  orderName,
} from "../runtime/names.ts";
import {
  BigIntScalar,
  BytesScalar,
  CursorScalar,
  DateScalar,
  DecimalScalar,
  JSONScalar,
  TimeScalar,
} from "../runtime/resolve/scalars.ts";
import { plural, withArticle } from "./english.ts";
import type { Model, ModelEmbeddable, ModelField, ModelType } from "./model.ts";
import { buildMutationTypes } from "./mutation_schema.ts";
import { buildWhereInputTypes } from "./where_schema.ts";

const nonNull = <T extends GraphQLOutputType>(t: T) => new GraphQLNonNull(t);

/**
 * Builds the `GraphQLSchema` of `model` (types only; resolvers are attached at runtime).
 */
export function buildSchema(model: Model): GraphQLSchema {
  return new SchemaBuilder(model).build();
}

/**
 * The schema of one Model, built in named steps: the Relay types every schema has, the enums,
 * the embeddables' objects and inputs, each node type's connection and order input, the where
 * inputs, the node types, the `Query` type, then the mutations; each step's types kept by name
 * for the steps after it.
 */
class SchemaBuilder {
  readonly #scalars: Record<string, GraphQLScalarType> = {
    Int: GraphQLInt,
    Float: GraphQLFloat,
    String: GraphQLString,
    Boolean: GraphQLBoolean,
    ID: GraphQLID,
    // The runtime's own scalars: the SDL prints their names and descriptions.
    Cursor: CursorScalar,
    Time: TimeScalar,
    Date: DateScalar,
    Decimal: DecimalScalar,
    BigInt: BigIntScalar,
    JSON: JSONScalar,
    Bytes: BytesScalar,
  };
  readonly #cursor = this.#scalar("Cursor");
  readonly #node = nodeInterface();
  readonly #pageInfo = pageInfoType(this.#cursor);
  readonly #direction = orderDirectionEnum();
  readonly #enums: Map<string, GraphQLEnumType>;
  readonly #embeddedObjects = new Map<string, GraphQLObjectType>();
  readonly #embeddedInputs = new Map<string, GraphQLInputObjectType>();
  /** Node type name -> its object (or interface, for an inheritance root). */
  readonly #objects = new Map<string, GraphQLObjectType | GraphQLInterfaceType>();
  readonly #connections = new Map<string, GraphQLObjectType>();
  readonly #orders = new Map<string, GraphQLInputObjectType>();
  readonly #wheres: Map<string, GraphQLInputObjectType>;

  constructor(readonly model: Model) {
    this.#enums = new Map(model.enums.map((e) => [
      e.name,
      new GraphQLEnumType({
        name: e.name,
        description: `The values of ${e.name}.`,
        values: Object.fromEntries(
          e.values.map((v) => [v.name, { value: v.name, description: `${e.name} ${v.name}.` }]),
        ),
      }),
    ]));
    for (const e of model.embeddables ?? []) this.#embeddable(e);
    for (const type of model.types) {
      this.#connections.set(type.name, this.#connection(type));
      const order = this.#order(type);
      if (order) this.#orders.set(type.name, order);
    }
    this.#wheres = buildWhereInputTypes(
      model,
      (name) => this.#enums.get(name) ?? this.#scalar(name),
    );
    for (const type of model.types) {
      this.#objects.set(type.name, this.#nodeType(type));
      if (type.rows) this.#objects.set(type.rows, this.#nodeType(type, type.rows));
    }
  }

  /**
   * The schema: `Query`, the mutations, and, in the SDL's order, every named type they or a node
   * type reference (what `node(id:)` can return is reachable): a connection, order or where input
   * nothing takes, an embeddable's input no mutation takes, `OrderDirection` without an order
   * input, are left out.
   */
  build(): GraphQLSchema {
    const named: GraphQLNamedType[] = [this.#node, this.#cursor, this.#pageInfo, this.#direction];
    for (const type of this.model.types) {
      named.push(this.#objects.get(type.name)!);
      if (type.rows) named.push(this.#objects.get(type.rows)!);
      named.push(this.#connections.get(type.name)!);
      const order = this.#orders.get(type.name);
      if (order) named.push(order);
      const where = this.#wheres.get(type.name);
      if (where) named.push(where);
    }
    named.push(
      ...this.#enums.values(),
      ...this.#embeddedObjects.values(),
      ...this.#embeddedInputs.values(),
    );
    const mutations = buildMutationTypes(this.model, {
      input: (name) =>
        this.#enums.get(name) ?? this.#embeddedInputs.get(name) ?? this.#scalar(name),
      object: (name) => this.#objects.get(name) as GraphQLObjectType,
    });
    named.push(...mutations.inputs);
    const roots = {
      query: this.#query(),
      mutation: mutations.mutation,
      subscription: this.#subscription(),
    };
    // graphql-js collects what the roots and the given types reference; the node types are given.
    const referenced = new GraphQLSchema({ ...roots, types: [...this.#objects.values()] })
      .getTypeMap();
    return new GraphQLSchema({ ...roots, types: named.filter((t) => t.name in referenced) });
  }

  /** The scalar named `name`: graphql-js's own, or one of the runtime's. */
  #scalar(name: string): GraphQLScalarType {
    const scalar = this.#scalars[name];
    if (!scalar) throw new Error(`no scalar ${name}`);
    return scalar;
  }

  /** The output type of a field of a node type or embeddable. */
  #outputOf(f: ModelField): GraphQLOutputType {
    const named = f.embedded
      ? this.#embeddedObjects.get(f.embedded)!
      : f.enum
      ? this.#enums.get(f.enum)!
      : this.#scalar(f.graphqlType);
    const base = f.list ? new GraphQLList(nonNull(named)) : named;
    return f.nullable ? base : nonNull(base);
  }

  /** An embeddable's object type and its input (`<E>Input`). */
  #embeddable(e: ModelEmbeddable): void {
    this.#embeddedObjects.set(
      e.name,
      new GraphQLObjectType({
        name: e.name,
        description: e.description,
        fields: () =>
          Object.fromEntries(
            e.fields.map((f) => [f.name, { type: this.#outputOf(f), description: f.description }]),
          ),
      }),
    );
    this.#embeddedInputs.set(
      e.inputName,
      new GraphQLInputObjectType({
        name: e.inputName,
        description: `Input of the embeddable ${e.name}.`,
        fields: () =>
          Object.fromEntries(e.fields.map((f) => {
            const named: GraphQLInputType = f.embedded
              ? this.#embeddedInputs.get(embeddableInputName(f.embedded))!
              : f.enum
              ? this.#enums.get(f.enum)!
              : this.#scalar(f.graphqlType);
            const list = f.list ? new GraphQLList(new GraphQLNonNull(named)) : named;
            return [f.name, {
              type: f.optional ? list : new GraphQLNonNull(list),
              description: f.description,
            }];
          })),
      }),
    );
  }

  /** `<T>Connection` with its `<T>Edge`. */
  #connection(type: ModelType): GraphQLObjectType {
    const edge = new GraphQLObjectType({
      name: edgeName(type.name),
      description: "An edge in a connection.",
      fields: () => ({
        node: {
          type: this.#objects.get(type.name)!,
          description: "The item at the end of the edge.",
        },
        cursor: {
          type: nonNull(this.#cursor),
          description: "A cursor for use in pagination.",
        },
      }),
    });
    return new GraphQLObjectType({
      name: connectionName(type.name),
      description: "A connection to a list of items.",
      fields: {
        edges: {
          type: new GraphQLList(edge),
          description: "A list of edges.",
        },
        pageInfo: {
          type: nonNull(this.#pageInfo),
          description: "Information to aid in pagination.",
        },
        totalCount: {
          type: nonNull(GraphQLInt),
          description: "Identifies the total count of items in the connection.",
        },
      },
    });
  }

  /** `<T>Order` with its `<T>OrderField` enum; `undefined` for a type without order fields. */
  #order(type: ModelType): GraphQLInputObjectType | undefined {
    if (type.orderFields.length === 0) return undefined;
    const orderField = new GraphQLEnumType({
      name: orderFieldName(type.name),
      description: `Properties by which ${type.name} connections can be ordered.`,
      values: Object.fromEntries(
        type.orderFields.map((o) => [o.name, {
          value: o.name,
          description: o.count
            ? `Order by the number of ${o.prop}.`
            : o.field
            ? `Order by the ${o.field} of ${o.prop}.`
            : `Order by ${o.prop}.`,
        }]),
      ),
    });
    return new GraphQLInputObjectType({
      name: orderName(type.name),
      description: `Ordering options for ${type.name} connections`,
      fields: {
        direction: {
          type: new GraphQLNonNull(this.#direction),
          defaultValue: "ASC",
          description: `The ordering direction.`,
        },
        field: {
          type: new GraphQLNonNull(orderField),
          description: `The field by which to order ${plural(type.name)}.`,
        },
      },
    });
  }

  /** The arguments of a connection field of `type`: the Relay ones, `orderBy`, `where`. */
  #connectionArgs(type: ModelType): GraphQLFieldConfigArgumentMap {
    const args: GraphQLFieldConfigArgumentMap = {
      after: {
        type: this.#cursor,
        description: "Returns the elements in the list that come after the specified cursor.",
      },
      first: {
        type: GraphQLInt,
        description: "Returns the first _n_ elements from the list.",
      },
      before: {
        type: this.#cursor,
        description: "Returns the elements in the list that come before the specified cursor.",
      },
      last: {
        type: GraphQLInt,
        description: "Returns the last _n_ elements from the list.",
      },
    };
    const order = this.#orders.get(type.name);
    if (order) {
      args.orderBy = {
        type: type.multiOrder ? new GraphQLList(new GraphQLNonNull(order)) : order,
        description: `Ordering options for ${plural(type.name)} returned from the connection.`,
      };
    }
    const where = this.#wheres.get(type.name);
    if (where) {
      args.where = {
        type: where,
        description: `Filtering options for ${plural(type.name)} returned from the connection.`,
      };
    }
    return args;
  }

  /**
   * A node type's object (an interface for a class whose rows can be of several classes): id,
   * fields, edges. With `rows`, the object type of the rows that are exactly the class of the
   * interface `type`, which it implements.
   */
  #nodeType(type: ModelType, rows?: string): GraphQLObjectType | GraphQLInterfaceType {
    const config = {
      name: rows ?? type.name,
      description: rows
        ? `${
          type.description ? `${type.description}\n\n` : ""
        }The rows that are exactly a ${type.name}, not of a class extending it.`
        : type.description,
      // A class implements the interfaces of its ancestors (GraphQL lists them all, nearest
      // first), and its own rows' object type the class's interface too.
      interfaces: () =>
        [...rows ? [type.name] : [], ...type.implements ?? []].reduce(
          (list, name) => [...list, this.#objects.get(name) as GraphQLInterfaceType],
          [this.#node],
        ),
      fields: () => {
        const fields: GraphQLFieldConfigMap<unknown, unknown> = {
          id: { type: nonNull(GraphQLID), description: "The ID of the object." },
        };
        for (const f of type.fields) {
          fields[f.name] = { type: this.#outputOf(f), description: f.description };
        }
        for (const e of type.edges) {
          const target = this.model.types.find((t) => t.name === e.target)!;
          if (e.unique) {
            const object = this.#objects.get(e.target)!;
            fields[e.name] = {
              type: e.nullable ? object : nonNull(object),
              description: e.description,
            };
          } else if (e.connection) {
            fields[e.name] = {
              type: nonNull(this.#connections.get(e.target)!),
              args: this.#connectionArgs(target),
              description: e.description,
            };
          } else {
            fields[e.name] = {
              type: new GraphQLList(nonNull(this.#objects.get(e.target)!)),
              description: e.description,
            };
          }
        }
        return fields;
      },
    };
    return type.abstract && !rows
      ? new GraphQLInterfaceType(config)
      : new GraphQLObjectType(config);
  }

  /**
   * `Subscription`: each change feed, `<type>Changed(where: <T>WhereInput): <T>ChangeEvent!`
   * (`ChangeOperation`, the node's id, the node); absent when no type is annotated
   * `Subscriptions()`.
   */
  #subscription(): GraphQLObjectType | undefined {
    const feeds = this.model.types.filter((t) => t.subscriptionField);
    if (feeds.length === 0) return undefined;
    const operation = new GraphQLEnumType({
      name: CHANGE_OPERATION,
      description: "What a committed change did to a node.",
      values: {
        CREATED: { value: "CREATED", description: "The node was created." },
        UPDATED: { value: "UPDATED", description: "The node was updated." },
        DELETED: { value: "DELETED", description: "The node was deleted." },
      },
    });
    const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
    for (const type of feeds) {
      const event = new GraphQLObjectType({
        name: changeEventName(type.name),
        description: `A committed change of ${withArticle(type.name)} the viewer may read.`,
        fields: {
          operation: { type: nonNull(operation), description: "What the change did." },
          id: { type: nonNull(GraphQLID), description: "The ID of the changed node." },
          node: {
            type: this.#objects.get(type.name)!,
            description:
              "The node as committed, read under the subscriber's policies; null when DELETED.",
          },
        },
      });
      const where = this.#wheres.get(type.name);
      fields[type.subscriptionField!] = {
        type: nonNull(event),
        description: `The committed changes of ${plural(type.name)} the viewer may read${
          where ? " and `where` selects" : ""
        }, one event per changed node per commit.`,
        ...(where
          ? {
            args: {
              where: {
                type: where,
                description: `Only changes of ${
                  plural(type.name)
                } this selects (after the change).`,
              },
            },
          }
          : {}),
      };
    }
    return new GraphQLObjectType({
      name: "Subscription",
      description: "The root of every subscription: a change feed per subscribed node type.",
      fields,
    });
  }

  /** `Query`: `node`, `nodes`, and each node type's root connection. */
  #query(): GraphQLObjectType {
    return new GraphQLObjectType({
      name: "Query",
      description: "The root of every query: nodes by global ID and a connection per node type.",
      fields: () => {
        const fields: GraphQLFieldConfigMap<unknown, unknown> = {
          node: {
            type: this.#node,
            description: "Fetches an object given its ID.",
            args: {
              id: { type: nonNull(GraphQLID), description: "ID of the object." },
            },
          },
          nodes: {
            type: nonNull(new GraphQLList(this.#node)),
            description: "Lookup nodes by a list of IDs.",
            args: {
              ids: {
                type: nonNull(new GraphQLList(nonNull(GraphQLID))),
                description: "The list of node IDs.",
              },
            },
          },
        };
        for (const type of this.model.types) {
          if (!type.queryField) continue;
          fields[type.queryField] = {
            type: nonNull(this.#connections.get(type.name)!),
            args: this.#connectionArgs(type),
            description: `${plural(type.name)}, paginated, ordered and filtered by the arguments.`,
          };
        }
        return fields;
      },
    });
  }
}

/** `Node`, the Relay Global Object Identification interface. */
function nodeInterface(): GraphQLInterfaceType {
  return new GraphQLInterfaceType({
    name: "Node",
    description: "An object with a globally unique ID (Relay Global Object Identification).",
    fields: {
      id: { type: nonNull(GraphQLID), description: "The ID of the object." },
    },
  });
}

/** `PageInfo` of the Relay Cursor Connections spec, its cursors of type `cursor`. */
function pageInfoType(cursor: GraphQLScalarType): GraphQLObjectType {
  return new GraphQLObjectType({
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
}

/** `OrderDirection`: `ASC`, `DESC`. */
function orderDirectionEnum(): GraphQLEnumType {
  return new GraphQLEnumType({
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
}
