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
import {
  type ResolvedSidePanel,
  resolveSidePanel,
  type SidePanelOptions,
} from "../side_panel_options.ts";
import { SearchBoxRoot } from "../ui/search_box.ts";
import { SidePanelRoot } from "../ui/side_panel_root.ts";
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
 * The options resolved from `props` by `resolve`, kept while the props are
 * equal (see {@link equal}): a re-render of the page's components with equal
 * props keeps the search client, the storages and the shortcuts' listener.
 */
function useResolved<P extends { portalContainer?: unknown }, R>(
  props: P,
  resolve: (options: Omit<P, "portalContainer">) => R,
): R {
  const last = useRef<{ props: P; options: R } | null>(null);
  if (!last.current || !equal(last.current.props, props)) {
    const { portalContainer: _, ...options } = props;
    last.current = { props, options: resolve(options) };
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
  const options: ResolvedOptions = useResolved(props, resolveOptions);
  // through the stand-in's `h`, so that the list the root returns (button, modal) is a fragment;
  // `place` runs only while open, in the browser: a server render touches no `document`
  return h(SearchBoxRoot, {
    options,
    place: (dialog: ReactNode) =>
      createPortal(dialog, props.portalContainer ?? options.environment.document.body),
  }) as ReactNode;
}

/** Props of {@link SidePanel}: the options of `sidePanel()` without `container`, and `portalContainer`. */
export interface SidePanelProps extends Omit<SidePanelOptions, "container"> {
  /** Node the panel mounts into (a React portal); default `document.body` of `environment`. */
  portalContainer?: Element | DocumentFragment;
}

/**
 * The Sidepanel as a React component (as `@docsearch/react/sidepanel`): its
 * button, the `Ctrl/Cmd+I` shortcut, and while open the Ask AI panel,
 * portalled into `portalContainer` (default `document.body`); with a
 * `SearchBox` on the page, the modal's Ask AI opens in the panel. On a server
 * it renders the button alone, which the client hydrates.
 *
 * @example A floating panel beside the search box
 * ```ts
 * import { createElement } from "react";
 * import { SidePanel } from "@mikrogql/searchbox-react";
 *
 * createElement(SidePanel, {
 *   appId: "YOUR_APP_ID",
 *   apiKey: "YOUR_SEARCH_API_KEY",
 *   indices: ["docs"],
 *   askAi: { assistantId: "YOUR_ASSISTANT_ID", suggestedQuestions: true },
 *   variant: "floating",
 * });
 * ```
 *
 * @throws {Error} for invalid options (see `resolveSidePanel`).
 */
export function SidePanel(props: SidePanelProps): ReactNode {
  const options: ResolvedSidePanel = useResolved(props, resolveSidePanel);
  return h(SidePanelRoot, {
    options,
    place: (panel: ReactNode) =>
      createPortal(panel, props.portalContainer ?? options.base.environment.document.body),
  }) as ReactNode;
}
