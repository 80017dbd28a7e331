/**
 * The doc comments (`/** ... *\/`) of entity modules, which become GraphQL descriptions: the
 * comment before an exported entity (`export const Author = defineEntity(...)`,
 * `export class Post`, decorators between them allowed), and the comment before each of its
 * properties: a key of `defineEntity`'s `properties: { ... }` object, or a member of the class
 * body (a getter too: a computed `persist: false` property). A small scanner, aware of strings,
 * template literals, comments and brackets; JSDoc tags (`@example`, ...) and what follows them are
 * left out.
 *
 * @module
 */

/** The doc comments of one module. */
export interface ModuleDocs {
  /** Export name -> the comment before it. */
  entities: Map<string, string>;
  /** `<export name>.<property>` -> the comment before the property. */
  properties: Map<string, string>;
}

/**
 * The text of a doc comment: `*` margins, tags and what follows them removed; an inline
 * `{@link X}` (`@linkcode`, `@linkplain`) becomes `` `X` ``, or its label when it has one.
 */
export function docText(comment: string): string | undefined {
  const lines = comment.replace(/^\/\*\*/, "").replace(/\*\/$/, "")
    .replace(
      /\{@link(?:code|plain)?\s+([^\s|}]+)(?:\s*\|\s*|\s+)?([^}]*)\}/g,
      (_, target: string, label: string) => label.trim() || `\`${target}\``,
    )
    .split("\n")
    .map((l) => l.replace(/^\s*\*? ?/, "").trimEnd());
  const tag = lines.findIndex((l) => /^@\w/.test(l.trim()));
  const text = (tag < 0 ? lines : lines.slice(0, tag)).join("\n").trim();
  return text || undefined;
}

/** Reads the doc comments of a module's source text. */
export function readDocs(source: string): ModuleDocs {
  const docs: ModuleDocs = { entities: new Map(), properties: new Map() };
  /** Open brackets: the bracket, and the key before it (`properties` in `properties: {`). */
  const stack: { bracket: string; key?: string; classBody?: boolean }[] = [];
  let exportName: string | undefined;
  let exportIsClass = false;
  let lastKey: string | undefined;
  let i = 0;
  const n = source.length;
  const identifierAt = (at: number) => /^[A-Za-z_$][\w$]*/.exec(source.slice(at, at + 200))?.[0];
  const skipSpace = (at: number) => {
    while (at < n && /\s/.test(source[at])) at++;
    return at;
  };
  /** Skips decorators (`@Name`, `@a.b(...)` with balanced parentheses) and whitespace. */
  const skipDecorators = (at: number) => {
    at = skipSpace(at);
    while (source[at] === "@") {
      at++;
      const name = /^[\w$.]+/.exec(source.slice(at))?.[0] ?? "";
      at = skipSpace(at + name.length);
      if (source[at] === "(") {
        let depth = 0;
        for (; at < n; at++) {
          if (source[at] === "(") depth++;
          else if (source[at] === ")" && --depth === 0) {
            at++;
            break;
          }
        }
      }
      at = skipSpace(at);
    }
    return at;
  };
  /** The comment `pending` belongs to what starts at `at`: an export or a property. */
  const attach = (doc: string, at: number) => {
    const start = skipDecorators(at);
    const rest = source.slice(start, start + 300);
    const exported = /^export\s+(?:default\s+)?(?:abstract\s+)?(const|let|class)\s+([\w$]+)/
      .exec(rest);
    if (exported && stack.length === 0) {
      docs.entities.set(exported[2], doc);
      return;
    }
    const top = stack.at(-1);
    if (!exportName || !top) return;
    const inProperties = top.bracket === "{" && top.key === "properties" && !exportIsClass;
    const inClass = top.classBody && stack.length === 1;
    if (!inProperties && !inClass) return;
    const member =
      /^(?:(?:readonly|declare|public|protected|private|static|override|accessor|get)\s+)*([\w$]+)\s*[!?]?\s*[:=(;]/
        .exec(rest);
    if (member) docs.properties.set(`${exportName}.${member[1]}`, doc);
  };
  while (i < n) {
    const c = source[i];
    const next = source[i + 1];
    if (c === "/" && next === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end < 0 ? n : end + 2;
      if (source[i + 2] === "*" && source[i + 3] !== "/") {
        const text = docText(source.slice(i, stop));
        if (text) attach(text, stop);
      }
      i = stop;
      continue;
    }
    if (c === "/" && next === "/") {
      const end = source.indexOf("\n", i);
      i = end < 0 ? n : end;
      continue;
    }
    if (c === '"' || c === "'" || c === "`") {
      i++;
      while (i < n && source[i] !== c) {
        if (source[i] === "\\") i++;
        i++;
      }
      i++;
      continue;
    }
    if (stack.length === 0) {
      const exported = /^export\s+(?:default\s+)?(?:abstract\s+)?(const|let|class)\s+([\w$]+)/
        .exec(source.slice(i, i + 200));
      if (exported && (i === 0 || /[\s;}]/.test(source[i - 1]))) {
        exportName = exported[2];
        exportIsClass = exported[1] === "class";
        i += exported[0].length;
        continue;
      }
    }
    if (c === "{" || c === "(" || c === "[") {
      stack.push({
        bracket: c,
        key: lastKey,
        classBody: c === "{" && stack.length === 0 && exportIsClass,
      });
      lastKey = undefined;
      i++;
      continue;
    }
    if (c === "}" || c === ")" || c === "]") {
      stack.pop();
      i++;
      continue;
    }
    const identifier = identifierAt(i);
    if (identifier && (i === 0 || !/[\w$]/.test(source[i - 1]))) {
      const after = skipSpace(i + identifier.length);
      lastKey = source[after] === ":" ? identifier : undefined;
      i += identifier.length;
      continue;
    }
    if (c === ":") {
      i++;
      continue; // the key stays for the bracket that follows
    }
    if (!/\s/.test(c)) lastKey = undefined;
    i++;
  }
  return docs;
}

/** The doc comments of entity modules, each module read once. */
export class DocComments {
  readonly #modules = new Map<string, ModuleDocs>();

  #module(file: string): ModuleDocs {
    let docs = this.#modules.get(file);
    if (!docs) {
      let source = "";
      try {
        source = Deno.readTextFileSync(file);
      } catch {
        // not a file on disk (an entity defined in a test): no comments
      }
      docs = readDocs(source);
      this.#modules.set(file, docs);
    }
    return docs;
  }

  /** The comment before the export `exportName` of `file`. */
  entity(file: string, exportName: string): string | undefined {
    return this.#module(file).entities.get(exportName);
  }

  /** The comment before the property `prop` of the export `exportName` of `file`. */
  property(file: string, exportName: string, prop: string): string | undefined {
    return this.#module(file).properties.get(`${exportName}.${prop}`);
  }
}
