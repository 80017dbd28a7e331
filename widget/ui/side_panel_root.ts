/**
 * The Sidepanel's up-front part: its button (floating in the page's corner,
 * or inline where it is rendered), the `Ctrl/Cmd+I` shortcut, the hybrid
 * mode's listener (the search box's modal hands its Ask AI over), the page's
 * `data-theme` for `theme: "light" | "dark"`, and the panel itself, a chunk
 * (`./side_panel.ts`) imported on the first sign of intent (pointer on the
 * button, focus, the shortcut, `open()`).
 *
 * @module
 */
import type { VNode } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import type { AskAiStart } from "../ask_ai/view.ts";
import { type ResolvedSidePanel, SIDE_PANEL_ASK } from "../side_panel_options.ts";
import { html } from "./html.ts";
import { sparklesIcon } from "./icons.ts";
import { setPageTheme } from "./page_theme.ts";
import { useApple } from "./platform.ts";
import { Portal } from "./portal.ts";

/** The panel's chunk. */
type PanelModule = typeof import("./side_panel.ts");

let loading: Promise<PanelModule> | null = null;
/** Imports the panel's chunk once (again after a failure). */
const loadPanel = () =>
  loading ??= import("./side_panel.ts").catch((error) => {
    loading = null;
    throw error;
  });

/** What the initializer's instance reads and calls (filled while rendering). */
export interface SidePanelHandle {
  isOpen?: boolean;
  open?(start?: AskAiStart): void;
  close?(): void;
}

/** Props of {@link SidePanelRoot}. */
export interface SidePanelRootProps {
  options: ResolvedSidePanel;
  handle?: SidePanelHandle;
  /** Where the panel mounts (the React package portals it); default: a portal into the body. */
  place?: (panel: VNode) => VNode;
}

/** The Sidepanel: button, shortcut, and the panel while open. */
export function SidePanelRoot({ options, handle = {}, place }: SidePanelRootProps): VNode {
  const { base, texts } = options;
  const env = base.environment;
  const [open, setOpen] = useState(false);
  const [start, setStart] = useState<AskAiStart & { key: number }>({ key: 0 });
  const [module, setModule] = useState<PanelModule | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const openRef = useRef(open);
  openRef.current = open;
  const apple = useApple(env);
  const shortcut = options.shortcut && (apple ? "Meta+i" : "Control+i");

  const load = () => void loadPanel().then(setModule, () => setOpen(false));
  const show = (from: AskAiStart = {}) => {
    load();
    if (from.question || from.conversation || !openRef.current) {
      setStart((s) => ({ ...from, key: s.key + 1 }));
    }
    setOpen(true);
  };
  const close = () => setOpen(false);
  handle.isOpen = open;
  handle.open = show;
  handle.close = close;

  useLayoutEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (
        options.shortcut && event.key?.toLowerCase() === "i" && (event.metaKey || event.ctrlKey)
      ) {
        event.preventDefault();
        if (openRef.current) close();
        else show();
      }
    };
    // hybrid mode: the modal's Ask AI opens here (the modal closes when the event is cancelled)
    const onAsk = (event: Event) => {
      event.preventDefault();
      show((event as CustomEvent<AskAiStart>).detail);
    };
    env.addEventListener("keydown", onKeyDown);
    if (options.hybrid) env.addEventListener(SIDE_PANEL_ASK, onAsk);
    const restore = setPageTheme(env, base.theme);
    return () => {
      env.removeEventListener("keydown", onKeyDown);
      env.removeEventListener(SIDE_PANEL_ASK, onAsk);
      restore();
    };
  }, [options]);

  useEffect(() => {
    base.onReady?.();
  }, []);

  useLayoutEffect(() => {
    if (!open) return;
    base.onOpen?.();
    return () => {
      button.current?.focus({ preventScroll: true });
      base.onClose?.();
    };
  }, [open]);

  let panel: VNode | null = null;
  if (open && module) {
    panel = html`
      <${module.SidePanelView} key=${start.key} options=${options}
        start=${start} onClose=${close} />
    ` as VNode;
    panel = place
      ? place(panel)
      : html`<${Portal} container=${env.document.body}>${panel}<//>` as VNode;
  }
  const floating = options.buttonVariant === "floating";
  return html`
    <button
      type="button"
      class=${`DocSearch DocSearch-SidepanelButton ${options.buttonVariant} DocSearch-SidepanelButton--${options.buttonVariant} DocSearch-SidepanelButton--${options.side}${
        base.theme === "auto" ? " DocSearch--auto" : ""
      }`}
      aria-label=${texts.buttonAriaLabel + (shortcut ? ` (${shortcut})` : "")}
      aria-keyshortcuts=${shortcut || undefined}
      aria-expanded=${open}
      onClick=${() => (open ? close() : show())}
      onPointerEnter=${load}
      onFocus=${load}
      onTouchStart=${load}
      ref=${button}
    >${sparklesIcon()}${!floating &&
      html`<span class="DocSearch-SidepanelButton-Text">${texts.buttonText}</span>`}</button>
    ${panel}
  ` as VNode;
}
