/**
 * The Sidepanel's script package (`deno task bundle` writes it as
 * `dist/sidepanel.js`, beside `searchbox.js`, sharing its chunks): a
 * persistent Ask AI chat anchored to the side of the page, as DocSearch ≥
 * 4.4's `@docsearch/sidepanel-js`. `sidePanel(options)` renders its button
 * into `options.container` and installs `Ctrl/Cmd+I`; the panel is a chunk
 * imported on intent. With the search box on the same page, the modal's Ask
 * AI opens in the panel (hybrid mode).
 *
 * @module
 */
import { h, render } from "preact";
import { containerElement } from "./container.ts";
import type { AskAiStart } from "./ask_ai/view.ts";
import { resolveSidePanel, type SidePanelOptions } from "./side_panel_options.ts";
import { type SidePanelHandle, SidePanelRoot } from "./ui/side_panel_root.ts";

export type { SidePanelOptions } from "./side_panel_options.ts";

/** What {@link sidePanel} returns, as `@docsearch/sidepanel-js`'s instance. */
export interface SidePanelInstance {
  /** Whether it is mounted: true from `sidePanel()`'s return to `destroy()`. */
  readonly isReady: boolean;
  /** Whether the panel is open (as of the last render). */
  readonly isOpen: boolean;
  /** Opens the panel, optionally asking `initialMessage.query` at once. */
  open(initialMessage?: { query: string }): void;
  /** Closes the panel. */
  close(): void;
  /** Removes the button, the panel and the shortcut, and restores the page's `data-theme`. */
  destroy(): void;
}

/**
 * Renders the Sidepanel's button into `options.container` (a CSS selector,
 * first match, or an element); the panel opens into the page's body.
 *
 * @example A floating Ask AI panel on the right, beside the search box
 * ```ts
 * import { sidePanel } from "@mikrogql/ext/widget";
 *
 * const panel = sidePanel({
 *   container: "#ask-ai",
 *   appId: "YOUR_APP_ID",
 *   apiKey: "YOUR_SEARCH_API_KEY",
 *   indices: ["docs"],
 *   askAi: { assistantId: "YOUR_ASSISTANT_ID", suggestedQuestions: true },
 *   variant: "floating",
 *   side: "right",
 * });
 * panel.open({ query: "How do I paginate?" });
 * ```
 *
 * @returns the instance: `open()`, `close()`, `isOpen`, `isReady`, `destroy()`.
 * @throws {Error} when `container` is missing or matches nothing, or another
 * option is invalid; the message names the option.
 */
export function sidePanel(options: SidePanelOptions): SidePanelInstance {
  const resolved = resolveSidePanel(options);
  const element = containerElement(resolved.base.environment, options.container);
  const handle: SidePanelHandle = {};
  let ready = true;
  render(h(SidePanelRoot, { options: resolved, handle }), element);
  return {
    get isReady() {
      return ready;
    },
    get isOpen() {
      return ready && handle.isOpen!;
    },
    open: (message) => {
      if (ready) handle.open!(message?.query ? { question: message.query } as AskAiStart : {});
    },
    close: () => ready && handle.close!(),
    destroy() {
      render(null, element);
      ready = false;
    },
  };
}

export default sidePanel;
