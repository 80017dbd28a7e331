/**
 * Persisted operations (trusted documents): the server answers only the documents of a manifest
 * built with the client, by their hash, and refuses any other document. A client sends
 * `{ "documentId": "<hash>", "variables": ... }` (GraphQL over HTTP's persisted documents),
 * `{ "doc_id": "<hash>", ... }` (Relay's documented fetch function) or
 * `{ "extensions": { "persistedQuery": { "version": 1, "sha256Hash": "<hash>" } }, ... }`
 * (Apollo's and graphql-codegen's client preset) instead of the document's text.
 *
 * The manifest is the JSON object `{ "<hash>": "<document text>", ... }` that both the Relay
 * compiler (`persistConfig: { file: "persisted_queries.json" }`) and graphql-codegen's client
 * preset (`presetConfig: { persistedDocuments: true }`, `persisted-documents.json`) write. Every
 * document is parsed and validated against the schema once, when the plugin is made: a manifest
 * that does not fit the schema fails at startup, naming the hash, not on a user's request. A
 * request then gets the parsed document itself (no parse, no document-cache lookup), and the
 * per-document plans of the plugins after it (validation result, `Limits`' cost plan, the
 * compiled `Jit` query) hang off that one document object, which is never evicted.
 *
 * Built on GraphQL Yoga's own `@graphql-yoga/plugin-persisted-operations`
 * (https://the-guild.dev/graphql/yoga-server/docs/features/persisted-operations), with the id
 * read from the three request shapes above and clean 400 answers with a code.
 *
 * @module
 */
import {
  type DocumentNode,
  GraphQLError,
  type GraphQLSchema,
  parse,
  specifiedRules,
  validate,
} from "graphql";
import type { GraphQLParams, Plugin } from "graphql-yoga";
import { usePersistedOperations } from "@graphql-yoga/plugin-persisted-operations";

/** The `extensions.code` of the errors persisted operations answer with (HTTP 400 each). */
export const PersistedOperationCode = {
  /** The request names a hash the manifest does not hold. */
  PERSISTED_QUERY_NOT_FOUND: "PERSISTED_QUERY_NOT_FOUND",
  /** The request sends a document's text, and only persisted operations are served. */
  PERSISTED_QUERY_ONLY: "PERSISTED_QUERY_ONLY",
  /** The request sends neither a document nor a hash. */
  PERSISTED_QUERY_ID_REQUIRED: "PERSISTED_QUERY_ID_REQUIRED",
} as const;

/**
 * A manifest of persisted operations: document text by hash, as the Relay compiler's
 * `persistConfig.file` and graphql-codegen client preset's `persisted-documents.json` write it.
 */
export type PersistedOperationsManifest = Readonly<Record<string, string>>;

/** Options of {@linkcode PersistedOperations} (and of `serve({ persistedOperations })`). */
export interface PersistedOperationsOptions {
  /** The operations, by hash (the parsed JSON of the manifest file). */
  manifest: PersistedOperationsManifest;
  /**
   * Also run documents sent as text (a migration period); default `false`: such a request is
   * answered 400 `PERSISTED_QUERY_ONLY`.
   */
  allowArbitraryOperations?: boolean;
}

/**
 * The hash a request names: `documentId`, `doc_id`, or `extensions.persistedQuery.sha256Hash`
 * (version 1); `null` when it names none.
 */
export function persistedOperationId(params: GraphQLParams): string | null {
  const named = params as GraphQLParams & { documentId?: unknown; doc_id?: unknown };
  if (typeof named.documentId === "string") return named.documentId;
  if (typeof named.doc_id === "string") return named.doc_id;
  const persisted = (params.extensions as { persistedQuery?: Record<string, unknown> } | undefined)
    ?.persistedQuery;
  if (persisted?.version === 1 && typeof persisted.sha256Hash === "string") {
    return persisted.sha256Hash;
  }
  return null;
}

/** A client error answered 400 with `code`. */
function refusal(code: string, message: string): () => GraphQLError {
  return () => new GraphQLError(message, { extensions: { code, http: { status: 400 } } });
}

/**
 * The persisted operations plugin (see the module documentation). Install it after
 * `mikrogqlPreset`'s plugins (`serve({ persistedOperations })` does).
 *
 * @example Serving the Relay compiler's manifest
 * ```ts
 * import { createYoga } from "graphql-yoga";
 * import { mikrogqlPreset, PersistedOperations } from "@mikrogql/ext";
 * import { createSchema } from "./generated/mod.ts";
 *
 * const schema = createSchema();
 * const manifest = JSON.parse(await Deno.readTextFile("persisted_queries.json"));
 * const preset = mikrogqlPreset({ txOpener: orm });
 * const yoga = createYoga({
 *   schema,
 *   ...preset,
 *   plugins: [...preset.plugins, PersistedOperations(schema, { manifest })],
 * });
 * ```
 *
 * @param schema the schema the documents are validated against at startup
 * @throws Error naming the hash when a manifest entry is not a string, does not parse, or is not
 *   valid against `schema`
 */
export function PersistedOperations(
  schema: GraphQLSchema,
  options: PersistedOperationsOptions,
): Plugin {
  return persistedOperationsOf(persistedDocuments(schema, options.manifest), options);
}

/**
 * The parsed documents of `manifest` by hash, each validated against `schema` (what
 * {@linkcode PersistedOperations} serves): for a server that also reads them itself (`serve()`'s
 * fast path answers a hash without Yoga's HTTP layer).
 *
 * @throws Error naming the hash when a manifest entry is not a string, does not parse, or is not
 *   valid against `schema`
 */
export function persistedDocuments(
  schema: GraphQLSchema,
  manifest: PersistedOperationsManifest,
): ReadonlyMap<string, DocumentNode> {
  const documents = new Map<string, DocumentNode>();
  for (const [hash, text] of Object.entries(manifest)) {
    if (typeof text !== "string") {
      throw new Error(`persisted operation ${hash}: the manifest's value is not a document text`);
    }
    let document: DocumentNode;
    try {
      document = parse(text);
    } catch (error) {
      throw new Error(`persisted operation ${hash}: ${(error as Error).message}`);
    }
    const errors = validate(schema, document, specifiedRules);
    if (errors.length) {
      throw new Error(`persisted operation ${hash}: ${errors.map((e) => e.message).join("; ")}`);
    }
    documents.set(hash, document);
  }
  return documents;
}

/**
 * {@linkcode PersistedOperations} over documents already loaded by {@linkcode persistedDocuments}
 * (the same objects, so what hangs off them is shared).
 *
 * @param documents the parsed documents by hash (`persistedDocuments`)
 * @param options `allowArbitraryOperations` (default `false`: a text is answered 400
 *   `PERSISTED_QUERY_ONLY`)
 * @returns a Yoga/envelop plugin
 */
export function persistedOperationsOf(
  documents: ReadonlyMap<string, DocumentNode>,
  options: Omit<PersistedOperationsOptions, "manifest">,
): Plugin {
  return usePersistedOperations({
    getPersistedOperation: (hash) => documents.get(hash) ?? null,
    extractPersistedOperationId: persistedOperationId,
    allowArbitraryOperations: options.allowArbitraryOperations ?? false,
    customErrors: {
      notFound: refusal(
        PersistedOperationCode.PERSISTED_QUERY_NOT_FOUND,
        "no persisted operation has this hash",
      ),
      persistedQueryOnly: refusal(
        PersistedOperationCode.PERSISTED_QUERY_ONLY,
        "only persisted operations are served: send the operation's hash, not its text",
      ),
      keyNotFound: refusal(
        PersistedOperationCode.PERSISTED_QUERY_ID_REQUIRED,
        "the request names no persisted operation (documentId, doc_id or extensions.persistedQuery.sha256Hash)",
      ),
    },
  }) as Plugin;
}
