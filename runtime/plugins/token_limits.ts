/**
 * The limits of the `Limits` plugin counted on a document's tokens, before graphql-js parses it:
 * the number of tokens (`QUERY_TOO_COMPLEX`) and how deep brackets nest (`{`, `(`, `[`:
 * `QUERY_TOO_DEEP`). graphql-js's parser is recursive descent, one call chain per bracket level,
 * and overflows the stack somewhere above a thousand levels (an `INTERNAL_SERVER_ERROR`); so are
 * validation, graphql-jit's compiler and the plugin's own document walks. Counting the nesting on
 * graphql-js's `Lexer` first bounds every one of them, whatever the document.
 *
 * The tokens are counted as graphql-js's `parse(source, { maxTokens })` counts them (comments and
 * the end excluded), in one pass that stops at the first token over either limit; a document
 * within both is then parsed by graphql-js, whose syntax errors (lexical ones included) are its
 * own.
 *
 * @module
 */
import { type GraphQLError, Lexer, parse, Source, TokenKind } from "graphql";
import { ErrorCode, gqlError } from "../error_codes.ts";

/** The limits {@linkcode parseWithTokenLimits} applies. */
export interface TokenLimits {
  /** Most tokens of a document. */
  maxTokens: number;
  /** Deepest nesting of brackets (`{`, `(`, `[` together). */
  maxNesting: number;
}

/**
 * graphql-js `parse` behind the token limits (built once per plugin rather than per request).
 *
 * @returns a parse function throwing `QUERY_TOO_COMPLEX` ("the document has more than N
 *   tokens") or `QUERY_TOO_DEEP` ("the document nests brackets more than N levels deep") for
 *   the first token over a limit, and graphql-js's own syntax errors otherwise
 */
export function parseWithTokenLimits(limits: TokenLimits): typeof parse {
  return (source, parseOptions) => {
    const refusal = tokenRefusal(typeof source === "string" ? new Source(source) : source, limits);
    if (refusal) throw refusal;
    return parse(source, { ...parseOptions, maxTokens: limits.maxTokens });
  };
}

/** The error of the first token over a limit; `undefined` when none is (or at a lexical error). */
function tokenRefusal(source: Source, limits: TokenLimits): GraphQLError | undefined {
  const lexer = new Lexer(source);
  let tokens = 0;
  let nesting = 0;
  for (;;) {
    let kind: TokenKind;
    try {
      kind = lexer.advance().kind;
    } catch {
      return undefined; // graphql-js's parse reports the lexical error itself, at the same place
    }
    if (kind === TokenKind.EOF) return undefined;
    if (++tokens > limits.maxTokens) {
      return gqlError(
        ErrorCode.QUERY_TOO_COMPLEX,
        `the document has more than ${limits.maxTokens} tokens; the limit is maxTokens = ${limits.maxTokens}`,
      );
    }
    if (kind === TokenKind.BRACE_L || kind === TokenKind.PAREN_L || kind === TokenKind.BRACKET_L) {
      if (++nesting > limits.maxNesting) {
        return gqlError(
          ErrorCode.QUERY_TOO_DEEP,
          `the document nests brackets more than ${limits.maxNesting} levels deep; the limit is maxNesting = ${limits.maxNesting}`,
        );
      }
    } else if (
      kind === TokenKind.BRACE_R || kind === TokenKind.PAREN_R || kind === TokenKind.BRACKET_R
    ) {
      nesting--;
    }
  }
}
