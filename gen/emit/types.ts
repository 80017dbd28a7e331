/**
 * `types.ts`: TypeScript types of the generated schema for user code, as graphql-codegen's
 * typescript + typescript-resolvers plugins give them: one type per GraphQL type (node types are
 * their entities), argument types per field, and `Resolvers`, typed per field by parent,
 * arguments, result and `Context` (which carries the EntityManager), an unknown type or field a
 * type error (`Resolvers<Extra>` adds what the user's `typeDefs` declare). Read from the final
 * SDL, so every GraphQL type the generator prints gets its TypeScript type.
 *
 * @module
 */
import {
  buildSchema,
  type GraphQLArgument,
  GraphQLEnumType,
  type GraphQLField,
  type GraphQLInputField,
  GraphQLInputObjectType,
  type GraphQLInputType,
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLOutputType,
  GraphQLScalarType,
  GraphQLUnionType,
  isIntrospectionType,
} from "graphql";
import type { Diagnostics } from "../diagnostics.ts";
import type { Model } from "../model.ts";
import { addImport, type Imports, renderModule } from "./module.ts";

/** TypeScript type of each scalar: as an argument (parsed) and as a resolver result. */
const SCALARS: Record<string, { input: string; output: string }> = {
  ID: { input: "string", output: "string | number" },
  String: { input: "string", output: "string" },
  Int: { input: "number", output: "number" },
  Float: { input: "number", output: "number" },
  Boolean: { input: "boolean", output: "boolean" },
  Time: { input: "Date", output: "Date | string" },
  Date: { input: "string", output: "string | Date" },
  Decimal: { input: "string", output: "string | number" },
  BigInt: { input: "string", output: "bigint | number | string" },
  Cursor: { input: "string", output: "string" },
  JSON: { input: "unknown", output: "unknown" },
  Bytes: { input: "Uint8Array", output: "Uint8Array" },
};

/**
 * Renders `types.ts`.
 *
 * @param sdl the generated SDL (what `schema.graphql` holds)
 * @param diagnostics the run's: records every name declared twice before the run fails
 * @throws GenerateError naming the entity when two declarations get one TypeScript name (a GraphQL type named
 *   `Context`, `Resolvers`, `<Type>Resolvers` or `<Type><Field>Args`)
 */
export function emitTypes(
  model: Model,
  sdl: string,
  runtime: string,
  diagnostics: Diagnostics,
): string {
  const schema = buildSchema(sdl);
  const imports: Imports = new Map();
  addImport(
    imports,
    runtime,
    "type EntityOf as $EntityOf",
    "type FieldResolver as $Resolver",
    "type Maybe as $Maybe",
    "type ResolverContext",
    "type TypedResolvers as $TypedResolvers",
  );
  addImport(imports, "./node.ts", "type nodeTypes");
  // Object type name -> its node type (the own rows' object type of an interface class: the
  // class's).
  const nodes = new Map(
    model.types.flatMap((t) => t.rows ? [[t.name, t.name], [t.rows, t.name]] : [[t.name, t.name]]),
  );
  const enumValues = new Map<string, (string | number)[]>(
    model.enums.map((e) => [e.name, e.values.map((v) => v.value)]),
  );
  const out: string[] = [
    `/** The context resolvers get: the request's EntityManager. */
export type Context = ResolverContext;`,
  ];
  const resolverTypes: string[] = [];
  const types = Object.values(schema.getTypeMap()).filter((t) => !isIntrospectionType(t))
    .sort((a, b) => a.name.localeCompare(b.name));
  for (const type of types) {
    if (type instanceof GraphQLScalarType) continue;
    if (type instanceof GraphQLEnumType) {
      const values = enumValues.get(type.name) ?? type.getValues().map((v) => v.name);
      out.push(
        `/** \`${type.name}\`, as resolvers see it (entity values). */
export type ${type.name} = ${values.map((v) => JSON.stringify(v)).join(" | ")};`,
      );
    } else if (type instanceof GraphQLInputObjectType) {
      // A type alias, not an interface: it passes as a \`Record<string, unknown>\` (the mutation
      // helpers' \`set(input)\`).
      out.push(
        `/** \`${type.name}\`. */
export type ${type.name} = {
${Object.values(type.getFields()).map((f) => `  ${member(f)};`).join("\n")}
};`,
      );
    } else if (type instanceof GraphQLUnionType) {
      out.push(`export type ${type.name} = ${type.getTypes().map((t) => t.name).join(" | ")};`);
    } else if (type instanceof GraphQLInterfaceType) {
      const implementations = schema.getPossibleTypes(type).map((t) => t.name);
      out.push(
        `/** \`${type.name}\`: one of its implementations. */
export type ${type.name} = ${implementations.join(" | ") || "never"};`,
      );
    } else if (type instanceof GraphQLObjectType) {
      const fields = Object.values(type.getFields());
      const feed = type === schema.getSubscriptionType();
      const root = feed || type === schema.getQueryType() || type === schema.getMutationType();
      if (feed) addImport(imports, runtime, "type SubscriptionResolver as $SubscriptionResolver");
      const node = nodes.get(type.name);
      if (node) {
        out.push(
          `/** \`${type.name}\`: the entity. */
export type ${type.name} = $EntityOf<typeof nodeTypes.${node}.entity>;`,
        );
      } else if (!root) {
        out.push(
          `/** \`${type.name}\`, as resolvers return it. */
export interface ${type.name} {
${fields.map((f) => `  ${f.name}${isNonNull(f.type) ? "" : "?"}: ${output(f.type)};`).join("\n")}
}`,
        );
      }
      for (const f of fields.filter((f) => f.args.length)) {
        out.push(
          `/** Arguments of \`${type.name}.${f.name}\`. */
export interface ${argsName(type.name, f)} {
${f.args.map((a) => `  ${member(a)};`).join("\n")}
}`,
        );
      }
      const parent = root ? "unknown" : type.name;
      out.push(
        `/** Resolvers of \`${type.name}\`'s fields. */
export interface ${type.name}Resolvers {
${
          fields.map((f) =>
            feed
              ? `  ${f.name}?: $SubscriptionResolver<${output(f.type)}${
                f.args.length ? `, ${argsName(type.name, f)}` : ""
              }>;`
              : `  ${f.name}?: $Resolver<${output(f.type)}, ${parent}${
                f.args.length ? `, ${argsName(type.name, f)}` : ""
              }>;`
          ).join("\n")
        }
}`,
      );
      resolverTypes.push(`  ${type.name}: ${type.name}Resolvers;`);
    }
  }
  out.push(
    `/**
 * The user resolver map \`createSchema({ resolvers })\` takes: every generated field typed, and
 * an unknown type or field a type error. Types and fields added with \`typeDefs\` are declared
 * in \`Extra\`, type by type (\`{ Query: { postCount: FieldResolver<number, unknown> } }\`),
 * and \`createSchema<Extra>(...)\` takes them too.
 */
export type Resolvers<Extra = Record<never, never>> = $TypedResolvers<{
${resolverTypes.join("\n")}
}, Extra>;`,
  );
  const declared = out.flatMap((d) => [...d.matchAll(/^export (?:type|interface) (\w+)/gm)])
    .map((m) => m[1]);
  const twice = declared.filter((name, i) => declared.indexOf(name) !== i);
  if (twice.length) {
    for (const name of new Set(twice)) {
      const type = model.types.find((t) => t.name === name) ??
        model.types.find((t) => name.startsWith(t.name));
      diagnostics.error({
        file: type?.file,
        entity: type?.meta.className,
        message:
          `the TypeScript name "${name}" of types.ts would be declared twice (a GraphQL type named like a generated resolver type); rename the GraphQL type with Type()`,
      });
    }
    diagnostics.throwIfErrors();
  }
  return renderModule(
    "TypeScript types of the generated schema for user resolvers: `Resolvers`, `Context`, and one type per GraphQL type (node types are their entities).",
    imports,
    out.join("\n\n"),
  );
}

function argsName(type: string, field: GraphQLField<unknown, unknown>): string {
  return `${type}${field.name.charAt(0).toUpperCase()}${field.name.slice(1)}Args`;
}

function isNonNull(type: GraphQLOutputType | GraphQLInputType): boolean {
  return type instanceof GraphQLNonNull;
}

/** An argument or input field as a TypeScript member: optional when nullable. */
function member(f: GraphQLArgument | GraphQLInputField): string {
  const optional = !isNonNull(f.type) || f.defaultValue !== undefined;
  return `${f.name}${optional ? "?" : ""}: ${input(f.type)}`;
}

function input(type: GraphQLInputType): string {
  if (type instanceof GraphQLNonNull) return inner(type.ofType, input, "input");
  return `$Maybe<${inner(type, input, "input")}>`;
}

function output(type: GraphQLOutputType): string {
  if (type instanceof GraphQLNonNull) return inner(type.ofType, output, "output");
  return `$Maybe<${inner(type, output, "output")}>`;
}

function inner<T extends GraphQLInputType | GraphQLOutputType>(
  type: T,
  wrap: (t: T) => string,
  side: "input" | "output",
): string {
  if (type instanceof GraphQLList) return `Array<${wrap(type.ofType as T)}>`;
  if (type instanceof GraphQLScalarType) return SCALARS[type.name]?.[side] ?? "unknown";
  return (type as { name: string }).name;
}
