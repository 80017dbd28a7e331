/**
 * The search box: the button, the global shortcuts and, while open, the modal
 * with the page's scroll locked (`DocSearch--active` on the body), focus
 * trapped in the modal and given back to the button on close.
 *
 * @module
 */
import type { VNode } from "preact";
import { useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import { type ResolvedOptions, resolveOptions, type SearchBoxOptions } from "../options.ts";
import { installShortcuts } from "../shortcuts.ts";
import { SearchButton } from "./button.ts";
import { html } from "./html.ts";
import { loadedModal, loadModal, whenIdle } from "./load_modal.ts";
import { lockScroll } from "./scroll_lock.ts";

/** Props of {@link SearchBox}: the options, plus where the modal mounts. */
export interface SearchBoxProps extends SearchBoxOptions {
  /** Node the modal mounts into; default `document.body` of `environment`. */
  portalContainer?: Element | DocumentFragment;
}

let instances = 0;

/**
 * The search box for resolved options; `portal` is where the modal mounts,
 * `null` for next to the button (the initializer's `container`). The modal's
 * chunk is imported on intent (pointer on the button, focus, touch, a
 * shortcut; at once with `initialQuery`) or when the page is idle. Opened
 * before it arrives, the box locks the page and keeps the keys typed
 * meanwhile for the input.
 */
export function SearchBoxRoot(
  { options, portal }: {
    options: ResolvedOptions;
    portal: Element | DocumentFragment | null;
  },
): VNode {
  const env = options.environment;
  const [open, setOpen] = useState(false);
  const [modal, setModal] = useState(loadedModal);
  const button = useRef<HTMLButtonElement>(null);
  const typed = useRef("");
  const openRef = useRef(open);
  openRef.current = open;
  const idPrefix = useMemo(() => `docsearch-${++instances}`, []);
  const load = () => {
    loadModal().then(setModal, () => setOpen(false));
  };
  const show = () => {
    typed.current = "";
    load();
    setOpen(true);
  };

  // a layout effect: the shortcuts work as soon as `searchBox()` returns
  useLayoutEffect(() =>
    installShortcuts(env, options.keyboardShortcuts, {
      isOpen: () => openRef.current,
      open: show,
      close: () => setOpen(false),
      onEscape: () => setOpen(false),
    }), [options]);

  useLayoutEffect(() => {
    if (!options.initialQuery) return whenIdle(env, load);
    load();
  }, [options]);

  useLayoutEffect(() => {
    if (!open) return;
    const { body } = env.document;
    body.classList.add("DocSearch--active");
    const unlock = lockScroll(env);
    return () => {
      body.classList.remove("DocSearch--active");
      unlock();
      button.current?.focus();
    };
  }, [open]);

  // open while the chunk loads: text keys go to the input-to-be, not the page
  useLayoutEffect(() => {
    if (!open || modal) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
      if (event.key === "Backspace") typed.current = typed.current.slice(0, -1);
      else if (event.key.length === 1) typed.current += event.key;
      else return;
      event.preventDefault();
    };
    env.addEventListener("keydown", onKeyDown, true);
    return () => env.removeEventListener("keydown", onKeyDown, true);
  }, [open, modal]);

  return html`
    <${SearchButton}
      translations=${options.translations.button}
      shortcuts=${options.keyboardShortcuts}
      environment=${env}
      buttonRef=${button}
      onClick=${show}
      onIntent=${load}
    />${open && modal &&
      html`
        <${modal.SearchModal}
          options=${options}
          portal=${portal}
          idPrefix=${idPrefix}
          query=${options.initialQuery + typed.current}
          onClose=${() => setOpen(false)}
        />
      `}
  ` as VNode;
}

/**
 * The search box as a Preact component: takes the options of
 * {@link SearchBoxOptions} as props (without `container`) and `portalContainer`.
 *
 * @throws {Error} for invalid options (see `resolveOptions`).
 */
export function SearchBox(props: SearchBoxProps): VNode {
  const options = useMemo(() => resolveOptions(props), [props]);
  return html`
    <${SearchBoxRoot}
      options=${options}
      portal=${props.portalContainer ?? options.environment.document.body}
    />
  ` as VNode;
}
