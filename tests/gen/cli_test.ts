/**
 * The generator's command line and metadata styles: help, version,
 * flags for every config option, one-line errors for bad config files, progress lines, `--check`,
 * `--watch`, and a project elsewhere with its own `deno.json` (import map aliases,
 * `experimentalDecorators`), legacy decorators with reflect-metadata and its
 * `mikro-orm.config.ts` passed as is (`--orm-config`), served and queried over HTTP.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import { TextLineStream } from "@std/streams";
import { copy } from "@std/fs/copy";
import { fromFileUrl, join, toFileUrl } from "@std/path";

const root = fromFileUrl(new URL("../../", import.meta.url));
const main = join(root, "gen/main.ts");
const decoder = new TextDecoder();

async function cli(args: string[], cwd = root) {
  const result = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", main, ...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: result.code,
    stdout: decoder.decode(result.stdout),
    stderr: decoder.decode(result.stderr),
  };
}

/** The non-empty lines of `text` that do not come from Deno itself (its warnings). */
function lines(text: string): string[] {
  return text.split("\n").filter((l) => l && !l.includes("Warning"));
}

Deno.test("CLI: --help and -h describe every option; --version and -V print deno.json's version", async () => {
  const help = await cli(["--help"]);
  assertEquals(help.code, 0);
  for (
    const option of [
      "-c, --config FILE",
      "-e, --entities DIR",
      "-o, --out DIR",
      "--orm-config FILE",
      "--global-ids FORMAT",
      "--runtime-import SPEC",
      "--no-format",
      "--deno-config FILE",
      "--check",
      "-w, --watch",
      "-q, --quiet",
      "-h, --help",
      "-V, --version",
    ]
  ) {
    assertMatch(
      help.stdout,
      new RegExp(`\\n  *${option.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&")}  +\\S`),
    );
  }
  assertEquals((await cli(["-h"])).stdout, help.stdout);
  const { version } = JSON.parse(await Deno.readTextFile(join(root, "deno.json")));
  assertEquals((await cli(["--version"])).stdout, `${version}\n`);
  assertEquals((await cli(["-V"])).stdout, `${version}\n`);
});

Deno.test("CLI: a missing, broken or wrong config file is one line on stderr and exit 2", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const missing = await cli(["--config", "missing.ts"]);
    assertEquals([missing.code, lines(missing.stderr)[0]], [
      2,
      "error: --config missing.ts: no such file",
    ]);
    await Deno.writeTextFile(join(dir, "broken.ts"), "export default {{;\n");
    const broken = await cli(["--config", join(dir, "broken.ts")]);
    assertEquals(broken.code, 2);
    assertMatch(lines(broken.stderr)[0], /^error: --config .*broken\.ts: cannot import: /);
    assertEquals(broken.stderr.includes("    at "), false, "no stack trace");
    await Deno.writeTextFile(join(dir, "typo.ts"), 'export default { entites: "x", out: "y" };\n');
    const typo = await cli(["--config", join(dir, "typo.ts")]);
    assertEquals(typo.code, 2);
    assertMatch(
      lines(typo.stderr)[0],
      /--config .*typo\.ts: unknown option "entites" \(did you mean "entities"\?\) \(one of /,
    );
    await Deno.writeTextFile(join(dir, "none.ts"), "export const x = 1;\n");
    const none = await cli(["--config", join(dir, "none.ts")]);
    assertEquals(none.code, 2);
    assertMatch(lines(none.stderr)[0], /must export default a config object/);
    const ids = await cli(["-e", "examples/blog/entities", "-o", dir, "--global-ids", "nope"]);
    assertEquals([ids.code, lines(ids.stderr)[0]], [
      2,
      'error: --global-ids must be one of opaque, universal, raw, got "nope"',
    ]);
    const unknown = await cli(["--nope"]);
    assertEquals([unknown.code, lines(unknown.stderr)[0]], [2, "error: unknown option --nope"]);
    const near = await cli(["--entites", "examples/blog/entities", "-o", dir]);
    assertEquals([near.code, lines(near.stderr)[0]], [
      2,
      "error: unknown option --entites (did you mean --entities?)",
    ]);
    const checks = await cli(["--chek"]);
    assertEquals(lines(checks.stderr)[0], "error: unknown option --chek (did you mean --check?)");
    // A path that is not there is bad usage (2), not an invalid model (1).
    const nowhere = await cli(["-e", "examples/blog/entitiez", "-o", dir]);
    assertEquals([nowhere.code, lines(nowhere.stderr)[0]], [
      2,
      "error: --entities examples/blog/entitiez: no such directory",
    ]);
    const noOrm = await cli(["--orm-config", "nope.config.ts", "-o", dir]);
    assertEquals([noOrm.code, lines(noOrm.stderr)[0]], [
      2,
      "error: --orm-config nope.config.ts: no such file",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("CLI: every config option is a flag (globalIds too); --check is exit 0 on the committed output and prints progress", async () => {
  const raw = "examples/todo/variants/raw";
  const args = ["-e", `${raw}/entities`, "-o", `${raw}/generated`, "--check"];
  const withFlag = await cli([...args, "--globalIds", "raw"]);
  assertEquals(withFlag.code, 0, withFlag.stderr);
  const out = lines(withFlag.stdout);
  assertEquals(out[0], "found 3 entities in 3 modules");
  assertEquals(out[1], `${raw}/generated is up to date (3 node types (Category, Todo, User))`);
  assertMatch(out[2], /^done in \d+ ms$/);
  assertEquals((await cli([...args, "--global-ids", "raw", "-q"])).stdout, "");
  // Without --config, ./gen.config.ts of the working directory is the config.
  const here = await cli(["--check"], join(root, "examples/blog"));
  assertEquals([here.code, lines(here.stdout)[1]], [
    0,
    "generated is up to date (4 node types (Comment, Photo, Post, User))",
  ]);
  // The same model with the default (opaque) ids is refused: the flag is what made it pass.
  const without = await cli(args);
  assertEquals(without.code, 1);
  assertStringIncludes(without.stderr, 'IdPrefix("todo") needs globalIds: "raw"');
});

Deno.test("CLI: --check exits 1 naming the stale files and writes nothing; generating fixes them", async () => {
  // Inside the repository: the output is formatted with the deno.json that governs it.
  const out = join(root, "examples/blog", `.check-test-${crypto.randomUUID().slice(0, 8)}`);
  try {
    await copy(join(root, "examples/blog/generated"), out);
    await Deno.writeTextFile(join(out, "enums.ts"), "// edited\n", { append: true });
    await Deno.remove(join(out, "edges.ts"));
    const edited = await Deno.readTextFile(join(out, "enums.ts"));
    const check = await cli(["-c", "examples/blog/gen.config.ts", "-o", out, "--check"]);
    assertEquals(check.code, 1);
    assertMatch(check.stdout, /is stale: edges\.ts, enums\.ts differ from a fresh generation/);
    assertEquals(await Deno.readTextFile(join(out, "enums.ts")), edited);
    assertEquals((await cli(["-c", "examples/blog/gen.config.ts", "-o", out])).code, 0);
    assertEquals((await cli(["-c", "examples/blog/gen.config.ts", "-o", out, "--check"])).code, 0);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("CLI: --watch regenerates when an entity module changes", async () => {
  const dir = await Deno.makeTempDir();
  const entity = join(dir, "entities/fine.ts");
  await Deno.mkdir(join(dir, "entities"));
  await Deno.copyFile(join(root, "tests/gen/fixtures/three_broken/fine.ts"), entity);
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", main, "-e", join(dir, "entities"), "-o", join(dir, "out"), "--watch"],
    cwd: root,
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const stdout = child.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(
    new TextLineStream(),
  ).getReader();
  const until = async (pattern: RegExp) => {
    for (;;) {
      const { value, done } = await stdout.read();
      assert(!done, `watch ended before ${pattern}`);
      if (pattern.test(value)) return;
    }
  };
  try {
    await until(/^watching /);
    assertEquals(
      (await Deno.readTextFile(join(dir, "out/schema.graphql"))).includes("nickname"),
      false,
    );
    const source = await Deno.readTextFile(entity);
    await Deno.writeTextFile(
      entity,
      source.replace("name: p.string() }", "name: p.string(), nickname: p.string().nullable() }"),
    );
    await until(/^wrote 1 node type \(Fine\)/);
    await until(/^watching /);
    assertMatch(await Deno.readTextFile(join(dir, "out/schema.graphql")), /nickname: String\n/);
  } finally {
    child.kill("SIGINT");
    await stdout.cancel();
    await child.status;
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * A copy of tests/gen/fixtures/legacy_project in a temporary directory with its own deno.json:
 * legacy decorators, an `@model/` alias, and `@mikrogql/ext` installed from this repository.
 */
async function legacyProject(): Promise<string> {
  const dir = await Deno.makeTempDir();
  await copy(join(root, "tests/gen/fixtures/legacy_project"), dir, { overwrite: true });
  const own = JSON.parse(await Deno.readTextFile(join(root, "deno.json"))).imports as Record<
    string,
    string
  >;
  const pick = (...names: string[]) => Object.fromEntries(names.map((n) => [n, own[n]]));
  await Deno.writeTextFile(
    join(dir, "deno.json"),
    JSON.stringify({
      compilerOptions: { experimentalDecorators: true, emitDecoratorMetadata: true },
      imports: {
        ...pick("@mikro-orm/core", "@mikro-orm/sql", "graphql", "graphql-yoga"),
        "@mikro-orm/decorators/legacy": own["@mikro-orm/decorators/es"].replace(/es$/, "legacy"),
        "reflect-metadata": "npm:reflect-metadata@0.2.2",
        "@mikrogql/ext": toFileUrl(join(root, "mod.ts")).href,
        "@model/": "./src/model/",
      },
      // What installing the package gives: its own imports for its own modules.
      scopes: {
        [toFileUrl(root).href]: Object.fromEntries(
          Object.entries(own).map((
            [k, v],
          ) => [k, v.startsWith("./") ? toFileUrl(join(root, v)).href : v]),
        ),
      },
    }),
  );
  return dir;
}

Deno.test("CLI: a project's own deno.json (aliases, legacy decorators) and its mikro-orm.config.ts as is; the API serves over HTTP", async () => {
  const dir = await legacyProject();
  let server: Deno.ChildProcess | undefined;
  try {
    const result = await cli(["--orm-config", "mikro-orm.config.ts", "--out", "generated"], dir);
    assertEquals(result.code, 0, result.stderr);
    assertEquals(lines(result.stdout)[0], "found 2 entities in 2 modules");
    assertEquals([...Deno.readDirSync(dir)].some((e) => e.name.startsWith(".mikrogql")), false);
    const sdl = await Deno.readTextFile(join(dir, "generated/schema.graphql"));
    // The fields as declared, without the descriptions between them.
    const bare = sdl.replace(/^ *"""[\s\S]*?"""\n/gm, "").replace(/\n{2,}/g, "\n");
    assertMatch(
      bare,
      /type Author implements Node \{\n {2}id: ID!\n {2}name: String!\n {2}bio: String\n {2}born: Time!\n {2}books\(/,
    );
    assertMatch(
      bare,
      /type Book implements Node \{\n {2}id: ID!\n {2}title: String!\n {2}pages: Int!\n {2}inPrint: Boolean!\n {2}author: Author!\n\}/,
    );
    assertMatch(bare, /enum AuthorOrderField \{\s+NAME\s+\}/);
    assertMatch(bare, /books\([^)]*\): BookConnection!/s);
    const check = await new Deno.Command(Deno.execPath(), {
      args: ["check", "generated/mod.ts", "server.ts"],
      cwd: dir,
      stderr: "piped",
    }).output();
    assert(check.success, decoder.decode(check.stderr));
    server = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "server.ts"],
      cwd: dir,
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const reader = server.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(
      new TextLineStream(),
    ).getReader();
    const port = (await reader.read()).value?.match(/^listening (\d+)$/)?.[1];
    await reader.cancel();
    assert(port, "the server printed its port");
    const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: `{ authors { edges { node { name bio books(orderBy: { field: TITLE }) {
          totalCount edges { node { title pages inPrint author { name } } } } } } } }`,
      }),
    });
    assertEquals(await response.json(), {
      data: {
        authors: {
          edges: [{
            node: {
              name: "Ursula",
              bio: null,
              books: {
                totalCount: 2,
                edges: [
                  {
                    node: {
                      title: "A Wizard of Earthsea",
                      pages: 183,
                      inPrint: false,
                      author: { name: "Ursula" },
                    },
                  },
                  {
                    node: {
                      title: "The Dispossessed",
                      pages: 387,
                      inPrint: true,
                      author: { name: "Ursula" },
                    },
                  },
                ],
              },
            },
          }],
        },
      },
    });
  } finally {
    server?.kill();
    await server?.status;
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("CLI: legacy decorators without their metadata provider: the discovery error names the file", async () => {
  const dir = await legacyProject();
  try {
    const result = await cli(["--entities", "src/model", "--out", "generated"], dir);
    assertEquals(result.code, 1);
    assertEquals(
      lines(result.stderr)[0],
      "error: src/model/author.ts: Author: MikroORM metadata discovery failed: Please provide either 'type' or 'entity' attribute in Author.id.",
    );
    assertEquals([...Deno.readDirSync(dir)].some((e) => e.name === "generated"), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("CLI: a project's gen.config.ts is imported once, with the project's import map (--watch too)", async () => {
  const dir = await legacyProject();
  let watcher: Deno.ChildProcess | undefined;
  try {
    // It imports through the project's import map, and counts its imports in imports.log.
    await Deno.writeTextFile(
      join(dir, "gen.config.ts"),
      `import "reflect-metadata";
import { ReflectMetadataProvider } from "@mikro-orm/decorators/legacy";

await Deno.writeTextFile(new URL("./imports.log", import.meta.url), "imported\\n", { append: true });

export default {
  orm: { metadataProvider: ReflectMetadataProvider, entities: ["./src/model"] },
  out: "generated",
};
`,
    );
    const log = () => Deno.readTextFile(join(dir, "imports.log")).catch(() => "");
    const result = await cli([], dir);
    assertEquals(result.code, 0, result.stderr);
    assertEquals(lines(result.stdout)[0], "found 2 entities in 2 modules");
    assertEquals(await log(), "imported\n");
    const check = await cli(["--check"], dir);
    assertEquals([check.code, lines(check.stdout)[1]], [
      0,
      "generated is up to date (2 node types (Author, Book))",
    ]);
    assertEquals(await log(), "imported\n".repeat(2));
    // --watch: once per generation, and it watches what the config names.
    watcher = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", main, "--watch"],
      cwd: dir,
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const stdout = watcher.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(
      new TextLineStream(),
    ).getReader();
    let line = "";
    while (!line.startsWith("watching ")) {
      const next = await stdout.read();
      assert(!next.done, "watch ended before watching");
      line = next.value;
    }
    assertEquals(line, "watching gen.config.ts");
    assertEquals(await log(), "imported\n".repeat(3));
    watcher.kill("SIGINT");
    await stdout.cancel();
  } finally {
    await watcher?.status;
    await Deno.remove(dir, { recursive: true });
  }
});
