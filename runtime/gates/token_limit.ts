/**
 * The token limit of the `Limits` plugin: graphql-js `parse` with `maxTokens`, whose refusal
 * becomes `QUERY_TOO_COMPLEX` naming the limit. graphql-js gives that refusal no code or class of
 * its own, so it is told from other syntax errors by where it points, never by its message text
 * (which a syntax error quoting a string could imitate).
 *
 * @module
 */
import { GraphQLError, Lexer, parse, Source, TokenKind } from "graphql";
import { ErrorCode, gqlError } from "../error_codes.ts";

/**
 * graphql-js `parse` with `maxTokens` (built once per plugin rather than per request).
 *
 * @returns a parse function throwing `QUERY_TOO_COMPLEX` ("the document has more than N tokens")
 *   for a document over the limit, and graphql-js's own syntax errors otherwise
 */
export function parseWithTokenLimit(maxTokens: number): typeof parse {
  return (source, parseOptions) => {
    try {
      return parse(source, { ...parseOptions, maxTokens });
    } catch (error) {
      if (isTokenLimit(source, maxTokens, error)) {
        throw gqlError(
          ErrorCode.QUERY_TOO_COMPLEX,
          `the document has more than ${maxTokens} tokens; the limit is maxTokens = ${maxTokens}`,
        );
      }
      throw error;
    }
  };
}

/**
 * Whether `error`, thrown by graphql-js `parse(source, { maxTokens })`, is its token limit: a
 * syntax error at the start of the document's `maxTokens + 1`-th token, counted as graphql-js
 * counts them (comments and the end excluded) with its `Lexer`. The count runs only for a
 * document that failed to parse; a lexical error before that token means the error is not the
 * token limit.
 */
function isTokenLimit(source: string | Source, maxTokens: number, error: unknown): boolean {
  const position = error instanceof GraphQLError ? error.positions?.[0] : undefined;
  if (position === undefined) return false;
  const lexer = new Lexer(typeof source === "string" ? new Source(source) : source);
  try {
    for (let count = 1;; count++) {
      const token = lexer.advance();
      if (token.kind === TokenKind.EOF) return false;
      if (count > maxTokens) return token.start === position;
    }
  } catch {
    return false;
  }
}
