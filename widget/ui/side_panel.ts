/**
 * The Sidepanel's panel, a chunk loaded on intent (`./side_panel_root.ts`):
 * a persistent Ask AI chat anchored to one side of the page, `floating`
 * above it or `inline` (pushing the page's content aside by its width), with
 * a header (title, expand on desktop, close) over the search box's own Ask AI
 * view (`../ask_ai/view.ts`: new-conversation screen, suggested questions,
 * the chat, stop, feedback, the conversation history), its services those of
 * the search box's modal's for the same options (`./services.ts`), so the
 * panel and the modal share one conversation storage and one token cache.
 * Full screen below 768 px (the stylesheet's `.DocSearch-Sidepanel` rules).
 *
 * @module
 */
import type { VNode } from "preact";
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { type AskAiStart, AskAiView } from "../ask_ai/view.ts";
import type { ResolvedSidePanel } from "../side_panel_options.ts";
import { ConversationList } from "./ask_ai_rows.ts";
import { trapFocus } from "./focus_trap.ts";
import { Footer } from "./footer.ts";
import { html } from "./html.ts";
import { closeIcon } from "./icons.ts";
import { servicesOf } from "./services.ts";

/** Props of {@link SidePanelView}. */
export interface SidePanelViewProps {
  options: ResolvedSidePanel;
  /** How the chat starts: a question (hybrid mode), a stored conversation, or a new one. */
  start: AskAiStart;
  onClose(): void;
}

/** The open panel (`aside.DocSearch-Sidepanel`). */
export function SidePanelView({ options, start, onClose }: SidePanelViewProps): VNode {
  const { base, texts } = options;
  const env = base.environment;
  const services = servicesOf(base);
  const [expanded, setExpanded] = useState(false);
  const panel = useRef<HTMLElement>(null);
  const width = expanded ? options.expandedWidth : options.width;

  // inline: the page's content makes room for the panel (not on a phone, where it is full screen)
  useLayoutEffect(() => {
    if (options.variant !== "inline" || env.matchMedia?.("(max-width: 768px)").matches) return;
    const target = options.pushSelector.split(",").map((s) => env.document.querySelector(s.trim()))
      .find(Boolean) as HTMLElement | undefined;
    if (!target) return;
    const property = options.side === "right" ? "marginRight" : "marginLeft";
    const before = target.style[property];
    target.style[property] = width;
    return () => void (target.style[property] = before);
  }, [width]);

  return html`
    <aside
      class=${`DocSearch DocSearch-Sidepanel DocSearch-Sidepanel--${options.variant} DocSearch-Sidepanel--${options.side}${
        expanded ? " DocSearch-Sidepanel--expanded" : ""
      }${base.theme === "auto" ? " DocSearch--auto" : ""}`}
      style=${{ "--docsearch-sidepanel-width": width }}
      aria-label=${texts.title}
      ref=${panel}
      onKeyDown=${(event: KeyboardEvent) => {
        if (event.key === "Escape") {
          event.preventDefault();
          onClose();
        } else if (
          options.variant === "floating" && env.matchMedia?.("(max-width: 768px)").matches
        ) {
          trapFocus(event, panel.current!);
        }
      }}
    >
      <header class="DocSearch-Sidepanel-Header">
        <h2 class="DocSearch-Sidepanel-Title">${texts.title}</h2>
        <button type="button" class="DocSearch-Action DocSearch-Sidepanel-Action-expand"
          aria-pressed=${expanded} title=${expanded ? texts.collapseText : texts.expandText}
          aria-label=${expanded ? texts.collapseText : texts.expandText}
          onClick=${() => setExpanded(!expanded)}>${expanded ? "⇥" : "⇤"}</button>
        <button type="button" class="DocSearch-Action DocSearch-Sidepanel-Close"
          title=${texts.closeText} aria-label=${texts
            .closeText} onClick=${onClose}>${closeIcon()}</button>
      </header>
      <div class="DocSearch-Sidepanel-Body">
        <${AskAiView}
          options=${base}
          conversations=${services.conversations}
          tokenCache=${services.tokenCache}
          searchClient=${services.askAiClient}
          start=${start}
          Footer=${Footer}
          ConversationList=${ConversationList}
          onClose=${onClose}
        />
      </div>
    </aside>
  ` as VNode;
}
