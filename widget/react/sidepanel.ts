/**
 * The Sidepanel as a React component (React 18 and 19), the package's
 * `@mikrogql/searchbox-react/sidepanel` entry, as DocSearch ships
 * `@docsearch/react/sidepanel`: a site with the search box alone loads
 * nothing more for it. Built with the package (`scripts/bundle_react.ts`).
 *
 * @module
 */
// @ts-types="@types/react"
import type { ReactNode } from "react";
// @ts-types="@types/react-dom"
import { createPortal } from "react-dom";
import {
  type ResolvedSidePanel,
  resolveSidePanel,
  type SidePanelOptions,
} from "../side_panel_options.ts";
import { SidePanelRoot } from "../ui/side_panel_root.ts";
import { h } from "./preact_on_react.ts";
import { useResolved } from "./use_resolved.ts";

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
 * import { SidePanel } from "@mikrogql/searchbox-react/sidepanel";
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
