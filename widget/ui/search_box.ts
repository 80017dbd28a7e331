/**
 * The search box: the button, the global shortcuts and, while open, the modal
 * with the page's scroll locked (`DocSearch--active` on the body), focus
 * trapped in the modal and given back to the button on close.
 *
 * @module
 */
import type { ComponentChildren, VNode } from "preact";
import { useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import { type ResolvedOptions, resolveOptions, type SearchBoxOptions } from "../options.ts";
import { createConversationStorage } from "../ask_ai/conversations.ts";
import { createLatestSearch, createSearchClient } from "../search.ts";
import { installShortcuts } from "../shortcuts.ts";
import { createSearchStorage } from "../storage.ts";
import { SearchButton } from "./button.ts";
import { html } from "./html.ts";
import { Modal } from "./modal.ts";
import { Portal } from "./portal.ts";
import { lockScroll } from "./scroll_lock.ts";

/** Props of {@link SearchBox}: the options, plus where the modal mounts. */
export interface SearchBoxProps extends SearchBoxOptions {
  /** Node the modal mounts into; default `document.body` of `environment`. */
  portalContainer?: Element | DocumentFragment;
}

let instances = 0;

/**
 * The search box for resolved options; `portal` is where the modal mounts,
 * `null` for next to the button (the initializer's `container`).
 */
export function SearchBoxRoot(
  { options, portal }: {
    options: ResolvedOptions;
    portal: Element | DocumentFragment | null;
  },
): VNode {
  const env = options.environment;
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const openRef = useRef(open);
  openRef.current = open;
  const idPrefix = useMemo(() => `docsearch-${++instances}`, []);
  const search = useMemo(() => {
    const client = options.transformSearchClient(
      createSearchClient(options.appId, options.apiKey),
    );
    return createLatestSearch(client, options.indices);
  }, [options]);
  const askAiClient = useMemo(() =>
    options.askAi &&
    options.transformSearchClient(createSearchClient(options.askAi.appId, options.askAi.apiKey)), [
    options,
  ]);
  const conversations = useMemo(() =>
    createConversationStorage({
      environment: env,
      appId: options.askAi?.appId ?? options.appId,
      indexName: options.askAi?.indexName ?? options.indices[0].name,
      disabled: options.disableUserPersonalization,
    }), [options]);
  const storage = useMemo(() =>
    createSearchStorage({
      environment: env,
      appId: options.appId,
      indexName: options.indices[0].name,
      disabled: options.disableUserPersonalization,
      recentSearchesLimit: options.recentSearchesLimit,
      recentSearchesWithFavoritesLimit: options.recentSearchesWithFavoritesLimit,
    }), [options]);

  // a layout effect: the shortcuts work as soon as `searchBox()` returns
  useLayoutEffect(() =>
    installShortcuts(env, options.keyboardShortcuts, {
      isOpen: () => openRef.current,
      open: () => setOpen(true),
      close: () => setOpen(false),
      onEscape: () => setOpen(false),
    }), [options]);

  useLayoutEffect(() => {
    if (!open) return;
    const unlock = lockScroll(env);
    return () => {
      unlock();
      button.current?.focus({ preventScroll: true });
    };
  }, [open]);

  let modal: ComponentChildren = open &&
    html`
      <${Modal}
        options=${options}
        storage=${storage}
        conversations=${conversations}
        askAiClient=${askAiClient}
        search=${search}
        idPrefix=${idPrefix}
        onClose=${() => setOpen(false)}
      />
    `;
  if (modal && portal) {
    modal = html`<${Portal} container=${portal}>${modal}<//>`;
  }
  return html`
    <${SearchButton}
      translations=${options.translations.button}
      shortcuts=${options.keyboardShortcuts}
      environment=${env}
      buttonRef=${button}
      autoTheme=${options.theme === "auto"}
      onClick=${() => setOpen(true)}
    />${modal}
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
