/**
 * Entry of the browser bundle (`deno task bundle` -> `dist/searchbox.js`,
 * Preact inlined): `searchBox` as the default export, the `html` helper, and
 * the `algoliasearch/lite` client factory so a page can point
 * `transformSearchClient` at other hosts without a second copy of it.
 *
 * @module
 */
import { searchBox } from "./initializer.ts";

export default searchBox;
export { searchBox };
export { html } from "./ui/html.ts";
export { liteClient } from "algoliasearch/lite";
