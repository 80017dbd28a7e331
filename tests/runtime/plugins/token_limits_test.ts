/**
 * `parseWithTokenLimits` against graphql-js's own `parse`, the oracle: the documents within the
 * limits parse alike, a document with more tokens than `maxTokens` (as graphql-js's `Lexer`
 * counts them, up to a lexical error) is `QUERY_TOO_COMPLEX` naming the limit, every other
 * syntax error is graphql-js's, unchanged (even one quoting graphql-js's token-limit text), and
 * brackets nested deeper than `maxNesting` are `QUERY_TOO_DEEP`, at depths where graphql-js's
 * parser alone overflows the stack.
 */
import { assert, assertEquals, assertInstanceOf, assertThrows } from "@std/assert";
import { GraphQLError, Lexer, parse, print, Source, TokenKind } from "graphql";
import { parseWithTokenLimits } from "../../../runtime/plugins/token_limits.ts";

/** The parse function with `maxTokens` and a nesting limit that does not matter here. */
const parseWithTokenLimit = (maxTokens: number) =>
  parseWithTokenLimits({ maxTokens, maxNesting: 1_000 });

/** graphql-js's message for its token limit ("that": graphql-js's spelling). */
const TOKEN_LIMIT = /^Syntax Error: Document contains more that \d+ tokens\. Parsing aborted\.$/;

/** What graphql-js's `parse` does with `maxTokens`: the document, or its error. */
function oracle(source: string, maxTokens: number): { ok: true } | { error: GraphQLError } {
  try {
    parse(source, { maxTokens });
    return { ok: true };
  } catch (error) {
    assertInstanceOf(error, GraphQLError);
    return { error };
  }
}

/** Where each token starts, as graphql-js's lexer reads them (comments are no tokens). */
function tokenStarts(source: string): number[] {
  const lexer = new Lexer(new Source(source));
  const starts: number[] = [];
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      starts.push(token.start);
    }
  } catch {
    // a lexical error ends the tokens
  }
  return starts;
}

/** The fewest `maxTokens` graphql-js accepts `source` with (its token count). */
function tokenCount(source: string): number {
  let low = 1;
  let high = 100_000;
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if ("ok" in oracle(source, mid)) high = mid;
    else low = mid + 1;
  }
  return low;
}

const DOCUMENTS = [
  "{ __typename }",
  "query Q($n: Int = 3) { users(first: $n) { edges { node { id name } } } }",
  `# a comment is no token
  { a: users(first: 1) { totalCount } b: posts(last: 2, orderBy: { field: TITLE }) { totalCount } }`,
  `query { ...F } fragment F on Query { users(where: { nameIn: ["a", "b", "c"] }) { totalCount } }`,
  `{ users(where: { name: """block
  string""" }) { totalCount } }`,
  'mutation { deletePost(id: "UG9zdDox") }',
];

Deno.test("token limit: the documents graphql-js accepts with maxTokens are parsed alike", () => {
  for (const source of DOCUMENTS) {
    const count = tokenCount(source);
    assert(count >= 3, source);
    for (const maxTokens of [count, count + 1, count * 2]) {
      const document = parseWithTokenLimit(maxTokens)(source);
      assertEquals(print(document), print(parse(source)), source);
    }
  }
});

Deno.test("token limit: one token over graphql-js's limit is QUERY_TOO_COMPLEX naming the limit", () => {
  for (const source of DOCUMENTS) {
    const count = tokenCount(source);
    for (const maxTokens of [1, Math.floor(count / 2), count - 1]) {
      const expected = oracle(source, maxTokens);
      assert("error" in expected, `graphql-js refuses ${maxTokens} tokens of ${source}`);
      const error = assertThrows(() => parseWithTokenLimit(maxTokens)(source), GraphQLError);
      assertEquals(error.extensions.code, "QUERY_TOO_COMPLEX");
      assertEquals(
        error.message,
        `the document has more than ${maxTokens} tokens; the limit is maxTokens = ${maxTokens}`,
      );
    }
  }
  // A Source object is counted as its body.
  const error = assertThrows(
    () => parseWithTokenLimit(2)(new Source("{ a b c }")),
    GraphQLError,
  );
  assertEquals(error.extensions.code, "QUERY_TOO_COMPLEX");
});

Deno.test("token limit: other syntax errors are graphql-js's own, even one quoting its limit text", () => {
  const broken = [
    "{ users(first: 1 { totalCount } }", // missing ")"
    "{ users(first: 1) { totalCount }", // missing "}"
    '{ a(b: "unterminated) }', // a lexical error
    // graphql-js's own words for its token limit ("that" sic), inside a syntax error
    '{ a(b: 1) "Document contains more that 5 tokens. Parsing aborted." }',
    "query { ... }",
  ];
  for (const source of broken) {
    for (const maxTokens of [tokenCount("{ a }"), 1_000]) {
      const expected = oracle(source, maxTokens);
      assert("error" in expected, source);
      const error = assertThrows(() => parseWithTokenLimit(maxTokens)(source), GraphQLError);
      if (tokenStarts(source).length > maxTokens) {
        // the tokens are counted before parsing: over the limit, wherever the syntax error is
        assertEquals(error.extensions.code, "QUERY_TOO_COMPLEX", source);
        continue;
      }
      assertEquals(error.message, expected.error.message, source);
      assertEquals(error.extensions.code, undefined, source);
      assertEquals(error.positions, expected.error.positions, source);
    }
  }
});

Deno.test("token limit: random documents agree with graphql-js on every limit around their size", () => {
  // A fixed linear congruential sequence: the same documents on every run.
  let seed = 20_260_101;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pieces = ["{", "}", "a", "b(x: 1)", "...F", "c: d", "(", ")", '"s"', "#c\n", "$v", "@skip"];
  for (let i = 0; i < 300; i++) {
    const source = Array.from(
      { length: 1 + Math.floor(rand() * 14) },
      () => pieces[Math.floor(rand() * pieces.length)],
    ).join(" ");
    for (let maxTokens = 1; maxTokens <= 16; maxTokens++) {
      const expected = oracle(source, maxTokens);
      let actual: { ok: true } | { error: GraphQLError };
      try {
        parseWithTokenLimit(maxTokens)(source);
        actual = { ok: true };
      } catch (error) {
        assertInstanceOf(error, GraphQLError);
        actual = { error };
      }
      if (tokenStarts(source).length > maxTokens) {
        assert("error" in actual && actual.error.extensions.code === "QUERY_TOO_COMPLEX", source);
      } else if ("ok" in expected) {
        assert("ok" in actual, `${source} with ${maxTokens} tokens`);
      } else {
        assert("error" in actual, source);
        assertEquals(actual.error.message, expected.error.message, source);
        assertEquals(actual.error.extensions.code, undefined, source);
      }
    }
  }
});

Deno.test("token limit: a syntax error found by graphql-js's lookahead is not the limit", () => {
  // graphql-js's parser looks one token ahead after a string (a description?) without counting
  // it; its syntax error then points at token maxTokens + 1. Counted first, the document's 2
  // tokens are within a limit of 2 and over a limit of 1, wherever graphql-js's error points.
  const source = '"s" "s"';
  const expected = oracle(source, 2);
  assert("error" in expected && !TOKEN_LIMIT.test(expected.error.message));
  const error = assertThrows(() => parseWithTokenLimit(2)(source), GraphQLError);
  assertEquals(error.message, expected.error.message);
  const over = assertThrows(() => parseWithTokenLimit(1)(source), GraphQLError);
  assertEquals(over.extensions.code, "QUERY_TOO_COMPLEX");
});

/** Selections nested `depth` deep, an argument of lists `lists` deep inside the innermost. */
function nested(depth: number, lists = 0): string {
  const value = "[".repeat(lists) + "1" + "]".repeat(lists);
  return "{ a ".repeat(depth - 1) + `{ b(x: ${value}) }` + " }".repeat(depth - 1);
}

Deno.test("nesting limit: brackets deeper than maxNesting are QUERY_TOO_DEEP, before parsing", () => {
  const limits = { maxTokens: 1_000_000, maxNesting: 50 };
  // { ... } 49 deep with ( [ inside: 49 + 1 + 0 = 50 levels; parsed as graphql-js parses it
  for (const [depth, lists] of [[49, 0], [48, 1], [1, 48], [25, 24]]) {
    const source = nested(depth, lists);
    assertEquals(print(parseWithTokenLimits(limits)(source)), print(parse(source)));
    const deeper = nested(depth + 1, lists);
    const error = assertThrows(() => parseWithTokenLimits(limits)(deeper), GraphQLError);
    assertEquals(error.extensions.code, "QUERY_TOO_DEEP");
    assertEquals(
      error.message,
      "the document nests brackets more than 50 levels deep; the limit is maxNesting = 50",
    );
  }
  // Closing brackets end a level: many shallow selections side by side are not deep.
  const wide = `{ ${"a { b } ".repeat(500)} }`;
  assertEquals(print(parseWithTokenLimits(limits)(wide)), print(parse(wide)));
  // The first limit reached in document order wins.
  const error = assertThrows(
    () => parseWithTokenLimits({ maxTokens: 20, maxNesting: 50 })(nested(100)),
    GraphQLError,
  );
  assertEquals(error.extensions.code, "QUERY_TOO_COMPLEX");
});

/** A variable of a list type `depth` lists deep. */
function variableType(depth: number): string {
  return `query ($v: ${"[".repeat(depth)}Int${"]".repeat(depth)}) { a }`;
}

Deno.test("nesting limit: documents that overflow graphql-js's parser are refused with a code", () => {
  const limits = { maxTokens: 10_000_000, maxNesting: 100 };
  for (const source of [nested(100_000), nested(2, 100_000), variableType(100_000)]) {
    // the oracle: graphql-js alone overflows the stack on it
    assertThrows(() => parse(source), RangeError);
    const error = assertThrows(() => parseWithTokenLimits(limits)(source), GraphQLError);
    assertEquals(error.extensions.code, "QUERY_TOO_DEEP");
  }
});
