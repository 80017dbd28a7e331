/**
 * The parsed-document and validation cache of a production server, as a GraphQL Yoga plugin:
 * parsed documents and parse errors bounded by the total length of their text (instead of Yoga's
 * default of 1,024 documents of any size, which lets a client fill the heap with large distinct
 * documents), and validation results kept with the parsed document they belong to.
 *
 * It replaces Yoga's own `parserAndValidationCache` (`mikrogqlPreset` turns that off and installs
 * this plugin): Yoga's validation cache looks its entries up per request in an LRU cache with a
 * time to live, whose clock arms a timer on most lookups under load, and joins the validation
 * rules' names per request; here a validation result hangs off the parsed document itself
 * (a `WeakMap`, per schema and set of rules), so a cache hit costs a comparison of the rules and
 * two map lookups, and the entry goes when the document leaves the bounded document cache.
 *
 * ```ts
 * createYoga({ schema, parserAndValidationCache: false, plugins: [Limits(), DocumentCache()] });
 * ```
 *
 * @module
 */
import type { DocumentNode, GraphQLSchema, ValidationRule } from "graphql";
import type { Plugin } from "graphql-yoga";
import { LRUCache } from "lru-cache";

/** Options of {@linkcode createDocumentCaches}. */
export interface DocumentCacheOptions {
  /**
   * Total length, in UTF-16 code units, of the text of the cached documents (and of the cached
   * parse errors' documents); default 2,000,000. The parsed trees take about 10 to 30 times
   * that in memory; least recently used documents are evicted first.
   */
  maxSourceLength?: number;
}

/** The bounded caches of {@linkcode DocumentCache}, by source text. */
export interface DocumentCaches {
  /** Parsed documents by source text, bounded by the summed source length. */
  documentCache: LRUCache<string, DocumentNode>;
  /** Parse errors by source text, bounded like `documentCache`. */
  errorCache: LRUCache<string, Error>;
}

/**
 * The bounded caches of parsed documents and parse errors: half the budget is for parsed
 * documents, half for parse errors; a document longer than its half is not cached.
 *
 * @example Caches to look into (a test, a metrics gauge)
 * ```ts
 * import { createDocumentCaches } from "@mikrogql/ext";
 *
 * const caches = createDocumentCaches({ maxSourceLength: 4_000_000 });
 * // createYoga({ ...mikrogqlPreset({ txOpener: orm, documentCache: caches }) })
 * setInterval(() => console.log(caches.documentCache.calculatedSize), 60_000);
 * ```
 *
 * @returns two LRU caches of `maxSourceLength / 2` UTF-16 code units each
 */
export function createDocumentCaches(options: DocumentCacheOptions = {}): DocumentCaches {
  const half = Math.max(1, Math.floor((options.maxSourceLength ?? 2_000_000) / 2));
  const sizeCalculation = (_value: unknown, key: string) => Math.max(1, key.length);
  return {
    documentCache: new LRUCache<string, DocumentNode>({ maxSize: half, sizeCalculation }),
    errorCache: new LRUCache<string, Error>({ maxSize: half, sizeCalculation }),
  };
}

/** Sets of validation rules whose results are kept. */
const MAX_RULE_SETS = 16;

type Validations = WeakMap<GraphQLSchema, WeakMap<DocumentNode, readonly Error[]>>;

/**
 * The document cache plugin (see the module documentation): install it with Yoga's
 * `parserAndValidationCache: false`, after the plugins that check a document before it is
 * parsed or validated (`Limits`); `mikrogqlPreset` does both.
 *
 * @example
 * ```ts
 * import { createYoga } from "graphql-yoga";
 * import { DocumentCache, Limits } from "@mikrogql/ext";
 * import { createSchema } from "./generated/mod.ts";
 *
 * const yoga = createYoga({
 *   schema: createSchema(),
 *   parserAndValidationCache: false,
 *   // at most 4,000,000 UTF-16 code units of document text cached, half of them parse errors
 *   plugins: [Limits(), DocumentCache({ maxSourceLength: 4_000_000 })],
 * });
 * ```
 *
 * @param caches the caches to use, or the options of new ones ({@linkcode createDocumentCaches})
 * @returns a Yoga/envelop plugin
 */
export function DocumentCache(caches: DocumentCaches | DocumentCacheOptions = {}): Plugin {
  const { documentCache: documents, errorCache: errors } = "documentCache" in caches
    ? caches
    : createDocumentCaches(caches);
  // Validation results by set of rules, schema and parsed document. envelop hands every request
  // a new array of the rules, so a set is found by its rules' identities, not the array's.
  const byRules: { rules: readonly ValidationRule[]; validations: Validations }[] = [];
  const none: Validations = new WeakMap();
  const validationsOf = (rules: readonly ValidationRule[] | undefined): Validations => {
    if (!rules) return none;
    const known = byRules.find((set) =>
      set.rules.length === rules.length && set.rules.every((rule, i) => rule === rules[i])
    );
    if (known) return known.validations;
    const validations: Validations = new WeakMap();
    // A plugin making new rule functions per request would add a set per request: keep the last.
    if (byRules.length === MAX_RULE_SETS) byRules.shift();
    byRules.push({ rules: [...rules], validations });
    return validations;
  };
  return {
    onParse({ params, setParsedDocument }) {
      const source = params.source.toString();
      const document = documents.get(source);
      if (document) return setParsedDocument(document);
      const error = errors.get(source);
      if (error) throw error;
      return ({ result }) => {
        if (result instanceof Error) errors.set(source, result);
        else if (result != null) documents.set(source, result as DocumentNode);
      };
    },
    onValidate({ params: { schema, documentAST, rules }, setResult }) {
      if (schema == null) return;
      const bySchema = validationsOf(rules);
      let byDocument = bySchema.get(schema);
      if (!byDocument) bySchema.set(schema, byDocument = new WeakMap());
      const known = byDocument.get(documentAST);
      if (known) return setResult(known);
      return ({ result }) => {
        if (result != null) byDocument.set(documentAST, result);
      };
    },
  };
}
