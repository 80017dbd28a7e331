/**
 * The search box: the button, the global shortcuts and, while open, the modal
 * with the page's scroll locked (`DocSearch--active` on the body), focus
 * trapped in the modal and given back to the button on close.
 *
 * Only the button and the shortcuts load with the page. The modal, its
 * search client and storage are a chunk (`./search_modal.ts`) imported on the
 * first sign of intent (pointer on the button, focus, touch, a shortcut; at
 * once with `initialQuery`) or when the page is idle. Opened before the chunk
 * has arrived, the box shows the modal's search bar with a real input
 * (`./modal_shell.ts`), so whatever the user types, pastes or composes
 * meanwhile is in the modal's input when it arrives.
 *
 * @module
 */
import type { VNode } from "preact";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import { type ResolvedOptions, resolveOptions, type SearchBoxOptions } from "../options.ts";
import { installShortcuts } from "../shortcuts.ts";
import { SearchButton } from "./button.ts";
import { Dialog } from "./dialog.ts";
import { html } from "./html.ts";
import { loadedModal, loadModal, whenIdle } from "./load_modal.ts";
import { ModalShell } from "./modal_shell.ts";
import { setPageTheme } from "./page_theme.ts";
import { Portal } from "./portal.ts";
import { SearchBar } from "./search_bar.ts";
import { lockScroll } from "./scroll_lock.ts";

/** Props of {@link SearchBox}: the options, plus where the modal mounts. */
export interface SearchBoxProps extends SearchBoxOptions {
  /** Node the modal mounts into; default `document.body` of `environment`. */
  portalContainer?: Element | DocumentFragment;
}

let instances = 0;

/**
 * What {@link SearchBoxRoot} fills in for the initializer's instance while it
 * renders: its `open` and `close`, and whether the modal is open.
 */
export interface SearchBoxHandle {
  open?(): void;
  close?(): void;
  isOpen?: boolean;
}

/**
 * The search box for resolved options. The modal renders next to the button
 * (the initializer's `container`), or where `place` puts it (the component's
 * `portalContainer`; a function, so that the initializer's bundle leaves the
 * portal out).
 */
export function SearchBoxRoot(
  { options, place, handle = {} }: {
    options: ResolvedOptions;
    place?: (dialog: VNode) => VNode;
    handle?: SearchBoxHandle;
  },
): VNode {
  const env = options.environment;
  const [open, setOpen] = useState(false);
  const [modal, setModal] = useState(loadedModal);
  const button = useRef<HTMLButtonElement>(null);
  // the text of the input while open, carried from the shell to the modal
  const typed = useRef(options.initialQuery);
  const openRef = useRef(open);
  openRef.current = open;
  const idPrefix = useMemo(() => `docsearch-${++instances}`, []);
  const load = (): undefined => {
    loadModal().then(setModal, () => setOpen(false));
  };
  const show = () => {
    // as DocSearch: without `initialQuery`, the text selected on the page (at most 512 characters)
    typed.current = options.initialQuery ||
      (env.getSelection?.()?.toString() ?? "").slice(0, 512);
    load();
    setOpen(true);
  };
  const close = () => setOpen(false);
  handle.open = show;
  handle.close = close;
  handle.isOpen = open;

  // a layout effect: the shortcuts work as soon as `searchBox()` returns
  useLayoutEffect(() =>
    installShortcuts(env, options.keyboardShortcuts, {
      isOpen: () => openRef.current,
      open: show,
      close,
      onEscape: close,
    }), [options]);

  useLayoutEffect(() => {
    // `theme: "light" | "dark"` is the page's `data-theme` while mounted, as DocSearch sets it
    const restore = setPageTheme(env, options.theme);
    const stop = options.initialQuery ? load() : whenIdle(env, load);
    return () => {
      stop?.();
      restore();
    };
  }, [options]);

  // after `searchBox()` has returned its instance, as DocSearch calls it
  useEffect(() => {
    options.onReady?.();
  }, []);

  useLayoutEffect(() => {
    if (!open) return;
    options.onOpen?.();
    const unlock = lockScroll(env);
    return () => {
      unlock();
      button.current?.focus({ preventScroll: true });
      options.onClose?.();
    };
  }, [open]);

  let dialog: VNode | null = null;
  if (open) {
    dialog = (modal
      ? html`
        <${modal.SearchModal}
          options=${options}
          idPrefix=${idPrefix}
          query=${typed.current}
          SearchBar=${SearchBar}
          Dialog=${Dialog}
          onClose=${close}
        />
      `
      : html`
        <${ModalShell}
          options=${options}
          idPrefix=${idPrefix}
          query=${typed.current}
          onInput=${(text: string) => typed.current = text}
          onClose=${close}
        />
      `) as VNode;
    if (place) dialog = place(dialog);
  }
  return html`
    <${SearchButton}
      translations=${options.translations.button}
      shortcuts=${options.keyboardShortcuts}
      environment=${env}
      buttonRef=${button}
      autoTheme=${options.theme === "auto"}
      onClick=${show}
      onIntent=${load}
    />${dialog}
  ` as VNode;
}

/**
 * The search box as a Preact component: takes the options of
 * {@link SearchBoxOptions} as props (without `container`) and `portalContainer`.
 *
 * @example In a Preact app, the modal mounted into `#modals`
 * ```ts
 * import { render } from "preact";
 * import { html, SearchBox } from "@mikrogql/ext/widget";
 *
 * render(
 *   html`<${SearchBox}
 *     appId="YOUR_APP_ID"
 *     apiKey="YOUR_SEARCH_API_KEY"
 *     indices=${["docs"]}
 *     portalContainer=${document.querySelector("#modals")!}
 *   />`,
 *   document.querySelector("#search")!,
 * );
 * ```
 *
 * @throws {Error} for invalid options (see `resolveOptions`).
 */
export function SearchBox(props: SearchBoxProps): VNode {
  const options = useMemo(() => resolveOptions(props), [props]);
  return html`
    <${SearchBoxRoot}
      options=${options}
      place=${(dialog: VNode) =>
        html`<${Portal} container=${
          props.portalContainer ?? options.environment.document.body
        }>${dialog}<//>`}
    />
  ` as VNode;
}
