/**
 * The script package: the entry of the browser bundle (`deno task bundle`
 * writes it as `dist/searchbox.js`, Preact inlined): `searchBox` as the default export, the `html` helper, and
 * `liteClient`, so a page can point `transformSearchClient` at other hosts
 * without a second copy of the `algoliasearch/lite` client. The page loads
 * only the button and the shortcuts up front; the modal and the client come
 * in a chunk imported on intent or when the page is idle.
 *
 * @module
 */
import type { liteClient as createLiteClient } from "algoliasearch/lite";
import { searchBox } from "./initializer.ts";
import type { SearchClient } from "./search.ts";
import { loadModal } from "./ui/load_modal.ts";

export default searchBox;
export { searchBox };
export { html } from "./ui/html.ts";

/**
 * `liteClient(appId, apiKey, options)` of `algoliasearch/lite`, for
 * `transformSearchClient`: returns at once a client with the one method the
 * search box calls, `search`, which creates the real client (it comes with
 * the modal's chunk) on its first call and forwards to it.
 */
export function liteClient(...args: Parameters<typeof createLiteClient>): SearchClient {
  let client: SearchClient | undefined;
  return {
    async search(params) {
      client ??= (await loadModal()).liteClient(...args) as unknown as SearchClient;
      return client.search(params);
    },
  };
}
