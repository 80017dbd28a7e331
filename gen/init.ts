/**
 * `--init`: the starter project of README's "Getting started in your own project", written into
 * an empty folder: `deno.json` (imports, the `generate` and `start` tasks, Deno's corrected abort
 * behaviour), two entities (one per MikroORM style) and a server. Run from a checkout rather than
 * from JSR, the `deno.json` links the package to that checkout.
 *
 * @module
 */
import { exists } from "@std/fs/exists";
import { dirname, fromFileUrl, join, relative, SEPARATOR } from "@std/path";
import { VERSION } from "./version.ts";

/** A file of the starter project: its path in the project, its text. */
export interface StarterFile {
  /** Relative to the project folder, with `/`. */
  path: string;
  text: string;
}

/**
 * The starter project's files.
 *
 * @param link the path of a local checkout of the package, relative to the project (`deno.json`'s
 *   `links`, so `jsr:@mikrogql/ext` resolves to it); none once the package comes from JSR
 */
export function starterFiles(link?: string): StarterFile[] {
  const links = link === undefined ? "" : `"links": [${JSON.stringify(link)}],\n  `;
  return [
    { path: "deno.json", text: DENO_JSON(links) },
    { path: "entities/author.ts", text: AUTHOR },
    { path: "entities/post.ts", text: POST },
    { path: "server.ts", text: SERVER },
  ];
}

/**
 * Writes the starter project into `dir`, linked to the checkout this module runs from when it
 * runs from files (not from JSR).
 *
 * @returns the paths written, relative to `dir`
 * @throws Error naming the starter files `dir` already holds (nothing is written then)
 */
export async function writeStarter(dir: string): Promise<string[]> {
  const here = new URL("..", import.meta.url);
  const link = here.protocol === "file:"
    ? relative(dir, fromFileUrl(here)).split(SEPARATOR).join("/") || "."
    : undefined;
  const files = starterFiles(link);
  const taken: string[] = [];
  for (const file of files) if (await exists(join(dir, file.path))) taken.push(file.path);
  if (taken.length) {
    throw new Error(`${taken.join(", ")} already exist${taken.length === 1 ? "s" : ""} in ${dir}`);
  }
  for (const file of files) {
    await Deno.mkdir(dirname(join(dir, file.path)), { recursive: true });
    await Deno.writeTextFile(join(dir, file.path), file.text);
  }
  return files.map((f) => f.path);
}

const DENO_JSON = (links: string) =>
  `{
  "imports": {
    "@mikrogql/ext": "jsr:@mikrogql/ext@^${VERSION}",
    "@mikrogql/ext/server": "jsr:@mikrogql/ext@^${VERSION}/server",
    "@mikro-orm/core": "npm:@mikro-orm/core@7.2.1",
    "@mikro-orm/decorators/es": "npm:@mikro-orm/decorators@7.2.1/es",
    "graphql": "npm:graphql@16.11.0"
  },
  ${links}"unstable": ["no-legacy-abort"],
  "tasks": {
    "generate": "deno run -A jsr:@mikrogql/ext@^${VERSION}/gen/main --entities ./entities --out ./generated",
    "start": "deno run -A --v8-flags=--no-memory-reducer server.ts"
  }
}
`;

const AUTHOR = `import { defineEntity, p } from "@mikro-orm/core";
import { annotate, Mutations, OrderField, QueryField, RelayConnection } from "@mikrogql/ext";
import { Post } from "./post.ts";

/** A person who writes posts. */
export const Author = defineEntity({
  name: "Author",
  properties: {
    id: p.integer().primary(),
    name: p.string(),
    posts: () => p.oneToMany(Post).mappedBy("author"),
  },
});
annotate(Author, {
  entity: [QueryField(), Mutations()],
  fields: { name: [OrderField("NAME")], posts: [RelayConnection()] },
});
`;

const POST = `import type { InferEntity } from "@mikro-orm/core";
import { Entity, ManyToOne, PrimaryKey, Property } from "@mikro-orm/decorators/es";
import { Mutations, OrderField, QueryField } from "@mikrogql/ext";
import { Author } from "./author.ts";

/** A post, written by one author. */
@Entity()
@QueryField()
@Mutations()
export class Post {
  @PrimaryKey({ type: "integer" })
  id!: number;

  @OrderField("TITLE")
  @Property({ type: "string" })
  title!: string;

  @ManyToOne({ entity: () => Author, index: true })
  author!: InferEntity<typeof Author>;
}
`;

const SERVER = `import { openOrm, serve } from "@mikrogql/ext/server";
import { Author } from "./entities/author.ts";
import { Post } from "./entities/post.ts";
import { createSchema } from "./generated/mod.ts";

const orm = await openOrm({
  url: Deno.env.get("DATABASE_URL") ?? "sqlite:app.db",
  entities: [Author, Post],
});
await orm.schema.update({ safe: true }); // creates missing tables and columns, drops nothing
await serve({ orm, schema: createSchema(), port: Number(Deno.env.get("PORT") ?? 8000) });
`;
