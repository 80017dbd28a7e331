/**
 * The search box as a React component (React 18 and 19): `SearchBox`, with
 * the options of `searchBox()` as props (without `container`) plus
 * `portalContainer`, and the `html` template helper, which here builds React
 * elements.
 *
 * It renders the search box's own components (`widget/ui/`, `widget/ask_ai/`)
 * through React: `deno task bundle` builds this module with `preact` and
 * `preact/hooks` mapped to `./preact_on_react.ts` and `./hooks_on_react.ts`
 * (React's `createElement` and hooks) and `react`/`react-dom` left to the
 * page, into `dist/react/` (`scripts/bundle_react.ts`). That build is the
 * package: imported as source, this module would render Preact elements.
 *
 * ```tsx
 * import { SearchBox } from "@mikrogql/searchbox-react";
 * <SearchBox appId="YOUR_APP_ID" apiKey="YOUR_SEARCH_API_KEY" indices={["docs"]} />
 * ```
 *
 * @module
 */
// @ts-types="@types/react"
import type { ReactNode } from "react";
// @ts-types="@types/react-dom"
import { createPortal } from "react-dom";
import { type ResolvedOptions, resolveOptions, type SearchBoxOptions } from "../options.ts";
import { SearchBoxRoot } from "../ui/search_box.ts";
import { h } from "./preact_on_react.ts";
import { useResolved } from "./use_resolved.ts";

export { html } from "../ui/html.ts";

/** Props of {@link SearchBox}: the options of `searchBox()` without `container`, and `portalContainer`. */
export interface SearchBoxProps extends Omit<SearchBoxOptions, "container"> {
  /** Node the modal mounts into (a React portal); default `document.body` of `environment`. */
  portalContainer?: Element | DocumentFragment;
}

/**
 * The search box as a React component: the button, the `Ctrl/Cmd+K` and `/`
 * shortcuts, and while open the modal, portalled into `portalContainer`
 * (default `document.body`). Unmounting removes the button, the modal and
 * the shortcuts' listener. On a server (`renderToString`, a framework's
 * server render) it renders the button alone, which the client hydrates.
 *
 * @example In a React app, the modal mounted into `#modals`
 * ```ts
 * import { createElement } from "react";
 * import { createRoot } from "react-dom/client";
 * import { SearchBox } from "@mikrogql/searchbox-react";
 *
 * createRoot(document.querySelector("#search")!).render(
 *   createElement(SearchBox, {
 *     appId: "YOUR_APP_ID",
 *     apiKey: "YOUR_SEARCH_API_KEY",
 *     indices: ["docs"],
 *     portalContainer: document.querySelector("#modals")!,
 *   }),
 * );
 * ```
 *
 * @throws {Error} for invalid options (see `resolveOptions`).
 */
export function SearchBox(props: SearchBoxProps): ReactNode {
  const options: ResolvedOptions = useResolved(props, resolveOptions);
  // through the stand-in's `h`, so that the list the root returns (button, modal) is a fragment;
  // `place` runs only while open, in the browser: a server render touches no `document`
  return h(SearchBoxRoot, {
    options,
    place: (dialog: ReactNode) =>
      createPortal(dialog, props.portalContainer ?? options.environment.document.body),
  }) as ReactNode;
}
