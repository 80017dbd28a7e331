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
import { type ReactNode, useRef } from "react";
// @ts-types="@types/react-dom"
import { createPortal } from "react-dom";
import { type ResolvedOptions, resolveOptions, type SearchBoxOptions } from "../options.ts";
import { SearchBoxRoot } from "../ui/search_box.ts";
import { h } from "./preact_on_react.ts";

export { html } from "../ui/html.ts";

/** Props of {@link SearchBox}: the options of `searchBox()` without `container`, and `portalContainer`. */
export interface SearchBoxProps extends Omit<SearchBoxOptions, "container"> {
  /** Node the modal mounts into (a React portal); default `document.body` of `environment`. */
  portalContainer?: Element | DocumentFragment;
}

/**
 * Whether `a` and `b` are equal as props: the same value, or arrays or plain
 * objects (`indices={["docs"]}`, `translations={{...}}` written in the JSX,
 * new on each render) of equal values; functions and elements by identity.
 */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((value, i) => equal(value, b[i]));
  }
  if (!isPlain(a) || !isPlain(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => equal(a[key], b[key]));
}

function isPlain(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * The options resolved from `props`, kept while the props are equal (see
 * {@link equal}): a re-render of the page's components with equal props
 * keeps the search client, the storages and the shortcuts' listener.
 */
function useResolvedOptions(props: SearchBoxProps): ResolvedOptions {
  const last = useRef<{ props: SearchBoxProps; options: ResolvedOptions } | null>(null);
  if (!last.current || !equal(last.current.props, props)) {
    const { portalContainer: _, ...options } = props;
    last.current = { props, options: resolveOptions(options) };
  }
  return last.current.options;
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
  const options = useResolvedOptions(props);
  // through the stand-in's `h`, so that the list the root returns (button, modal) is a fragment;
  // `place` runs only while open, in the browser: a server render touches no `document`
  return h(SearchBoxRoot, {
    options,
    place: (dialog: ReactNode) =>
      createPortal(dialog, props.portalContainer ?? options.environment.document.body),
  }) as ReactNode;
}
