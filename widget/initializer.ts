/**
 * The initializer of the script package: `searchBox(options)` renders the
 * search button, and the modal when open, into `options.container`.
 *
 * @module
 */
import { h, render } from "preact";
import { containerElement } from "./container.ts";
import { resolveOptions, type SearchBoxOptions } from "./options.ts";
import { type SearchBoxHandle, SearchBoxRoot } from "./ui/search_box.ts";

/**
 * What {@link searchBox} returns: the search box's programmatic control, as
 * DocSearch 4.7.1's instance (`docsearch()`'s return value).
 */
export interface SearchBoxInstance {
  /** Whether the search box is mounted: true from `searchBox()`'s return to `destroy()`. */
  readonly isReady: boolean;
  /** Whether the modal is open (as of the last render: `open()` shows once the box has rendered). */
  readonly isOpen: boolean;
  /** Opens the modal. */
  open(): void;
  /** Closes the modal. */
  close(): void;
  /** Removes the search box (button, modal, shortcuts) and restores the page's `data-theme`. */
  destroy(): void;
}

/**
 * Renders the search box into `options.container` (a CSS selector, of which
 * the first match is used, or an element).
 *
 * @example Keyword search over two indices, with Ask AI
 * ```ts
 * import { searchBox } from "@mikrogql/ext/widget";
 *
 * const search = searchBox({
 *   container: "#search",
 *   appId: "YOUR_APP_ID",
 *   apiKey: "YOUR_SEARCH_API_KEY",
 *   indices: ["docs", { name: "blog", searchParameters: { hitsPerPage: 5 } }],
 *   askAi: "YOUR_ASSISTANT_ID",
 *   onOpen: () => console.log("search opened"),
 * });
 * document.querySelector("#help")?.addEventListener("click", () => search.open());
 * // later, e.g. when the page's router leaves the page:
 * search.destroy();
 * ```
 *
 * @returns the instance: `open()`, `close()`, `isOpen`, `isReady`, `destroy()`.
 * @throws {Error} when `container` is missing or matches nothing, or another
 * option is invalid; the message names the option.
 */
export function searchBox(options: SearchBoxOptions): SearchBoxInstance {
  const resolved = resolveOptions(options);
  const element = containerElement(resolved.environment, options.container);
  const handle: SearchBoxHandle = {};
  let ready = true;
  render(h(SearchBoxRoot, { options: resolved, handle }), element);
  return {
    get isReady() {
      return ready;
    },
    get isOpen() {
      return ready && handle.isOpen!;
    },
    open: () => ready && handle.open!(),
    close: () => ready && handle.close!(),
    destroy() {
      render(null, element);
      ready = false;
    },
  };
}
