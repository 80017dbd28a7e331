/**
 * A parsed-document cache for GraphQL Yoga bounded by the total length of the cached documents'
 * text, instead of Yoga's default of 1,024 documents of any size (which lets a client fill the
 * heap with large distinct documents).
 *
 * ```ts
 * createYoga({ schema, parserAndValidationCache: documentCache(), plugins: [Limits()] });
 * ```
 *
 * @module
 */
import type { DocumentNode } from "graphql";
import { LRUCache } from "lru-cache";

/** Options of {@linkcode documentCache}. */
export interface DocumentCacheOptions {
  /**
   * Total length, in UTF-16 code units, of the text of the cached documents (and of the cached
   * parse errors' documents); default 2,000,000. The parsed trees take about 10 to 30 times
   * that in memory; least recently used documents are evicted first.
   */
  maxSourceLength?: number;
}

/** The `parserAndValidationCache` option of `createYoga`. */
export interface YogaDocumentCache {
  /** Parsed documents by source text, bounded by the summed source length. */
  documentCache: LRUCache<string, DocumentNode>;
  /** Parse errors by source text, bounded like `documentCache`. */
  errorCache: LRUCache<string, object>;
  /** `true`: Yoga keeps its own validation cache. */
  validationCache: true;
}

/**
 * A bounded parsed-document cache for `createYoga({ parserAndValidationCache })`. Half the
 * budget is for parsed documents, half for parse errors; a document longer than its half is
 * not cached. (`mikrogqlPreset` installs it, with its `documentCache` option.)
 *
 * @example
 * ```ts
 * import { createYoga } from "graphql-yoga";
 * import { documentCache, Limits } from "@mikrogql/ext";
 * import { createSchema } from "./generated/mod.ts";
 *
 * const yoga = createYoga({
 *   schema: createSchema(),
 *   // at most 4,000,000 UTF-16 code units of document text cached, half of them parse errors
 *   parserAndValidationCache: documentCache({ maxSourceLength: 4_000_000 }),
 *   plugins: [Limits()],
 * });
 * ```
 *
 * @returns the three caches of Yoga's `parserAndValidationCache` option
 */
export function documentCache(options: DocumentCacheOptions = {}): YogaDocumentCache {
  const half = Math.max(1, Math.floor((options.maxSourceLength ?? 2_000_000) / 2));
  const sizeCalculation = (_value: unknown, key: string) => Math.max(1, key.length);
  return {
    documentCache: new LRUCache<string, DocumentNode>({ maxSize: half, sizeCalculation }),
    errorCache: new LRUCache<string, object>({ maxSize: half, sizeCalculation }),
    validationCache: true,
  };
}
