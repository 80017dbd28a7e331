/**
 * The Sidepanel's options (DocSearch ≥ 4.4's `@docsearch/sidepanel-js`
 * `sidepanel()` and `@docsearch/react/sidepanel`), resolved: the Ask AI part
 * is the search box's own (`resolveOptions`), so the panel and the modal share
 * one chat protocol, one conversation storage and one token cache; the rest
 * is where and how the panel shows.
 *
 * @module
 */
import {
  type AskAiOptions,
  type ResolvedOptions,
  resolveOptions,
  type SearchBoxOptions,
} from "./options.ts";

/** Texts of the Sidepanel's button and header (DocSearch's `button.translations` and `translations.header`). */
export interface SidePanelTexts {
  /** The inline button's text; default `Ask AI`. */
  buttonText: string;
  /** The button's accessible name (the shortcut appended when on); default `Ask AI`. */
  buttonAriaLabel: string;
  /** The panel's title; default `Ask AI`. */
  title: string;
  /** Expand button (desktop); default `Expand`. */
  expandText: string;
  /** Collapse button (expanded); default `Collapse`. */
  collapseText: string;
  /** Close button; default `Close`. */
  closeText: string;
}

/** Where and how the panel shows (DocSearch's `panel` props). */
export interface SidePanelPanelOptions {
  /** `floating` (default): above the page; `inline`: pushes the page's content aside. */
  variant?: "floating" | "inline";
  /** Side of the page it opens from; default `right`. */
  side?: "left" | "right";
  /** Width (px number or any CSS width); default `360px`. */
  width?: number | string;
  /** Width when expanded (desktop); default `580px`. */
  expandedWidth?: number | string;
  /** What `inline` pushes: the first element matching one of these selectors; default `#root, main, .app, body`. */
  pushSelector?: string;
  /** Shows three suggested questions on the new-conversation screen (as `askAi.suggestedQuestions`). */
  suggestedQuestions?: boolean;
}

/** The options of `sidePanel()` and the props of `SidePanel`. */
export interface SidePanelOptions extends
  Pick<
    SearchBoxOptions,
    | "environment"
    | "appId"
    | "apiKey"
    | "indices"
    | "indexName"
    | "transformSearchClient"
    | "disableUserPersonalization"
    | "theme"
    | "onReady"
    | "onOpen"
    | "onClose"
  >,
  SidePanelPanelOptions {
  /** CSS selector (first match) or element: the button renders into it (the panel into the body). */
  container?: string | HTMLElement;
  /** The assistant: its ID or the {@link AskAiOptions} object (or DocSearch's flat `assistantId`). */
  askAi?: string | AskAiOptions;
  /** DocSearch's name for `askAi`'s assistant ID. */
  assistantId?: string;
  /** DocSearch's panel props (the top-level ones win). */
  panel?: SidePanelPanelOptions & { translations?: { header?: Partial<SidePanelTexts> } };
  /** DocSearch's button props: `variant` (`floating`, default, or `inline`) and its texts. */
  button?: {
    variant?: "floating" | "inline";
    translations?: Partial<Pick<SidePanelTexts, "buttonText" | "buttonAriaLabel">>;
  };
  /** `Ctrl/Cmd+I` toggles the panel (on by default). */
  keyboardShortcuts?: { "Ctrl/Cmd+I"?: boolean };
  /** Texts: the button's and header's (`header`), the Ask AI screens' (`modal`, as the search box's). */
  translations?: {
    header?: Partial<SidePanelTexts>;
    modal?: NonNullable<SearchBoxOptions["translations"]>["modal"];
  };
  /**
   * Hybrid mode: while the panel is mounted, the search box's Ask AI (its row,
   * a conversation, a new one) opens in the panel rather than in the modal;
   * default `true`.
   */
  hybrid?: boolean;
}

/** The options with defaults applied and validated. */
export interface ResolvedSidePanel {
  /** The Ask AI part, as the search box resolves it (`askAi` set). */
  base: ResolvedOptions & { askAi: NonNullable<ResolvedOptions["askAi"]> };
  variant: "floating" | "inline";
  side: "left" | "right";
  buttonVariant: "floating" | "inline";
  width: string;
  expandedWidth: string;
  pushSelector: string;
  shortcut: boolean;
  hybrid: boolean;
  texts: SidePanelTexts;
}

const DEFAULT_TEXTS: SidePanelTexts = {
  buttonText: "Ask AI",
  buttonAriaLabel: "Ask AI",
  title: "Ask AI",
  expandText: "Expand",
  collapseText: "Collapse",
  closeText: "Close",
};

/** The event the search box's modal sends before it opens Ask AI; a panel that takes it cancels it. */
export const SIDE_PANEL_ASK = "docsearch:sidepanel-ask";

/**
 * Resolves and validates the Sidepanel's options.
 *
 * @throws {Error} naming the option: no assistant (`askAi` or `assistantId`),
 * a `variant`/`side`/`button.variant` outside its values, a width that is not
 * a positive number or a string, or any error of the search box's options.
 */
export function resolveSidePanel(options: SidePanelOptions): ResolvedSidePanel {
  if (typeof options !== "object" || options === null) {
    throw new Error("The Sidepanel options must be an object");
  }
  const panel = { ...options.panel, ...defined(options, PANEL_KEYS) } as SidePanelPanelOptions;
  let askAi = options.askAi ?? options.assistantId;
  if (askAi === undefined) {
    throw new Error("`askAi` (or `assistantId`) is required: the Sidepanel is an Ask AI chat");
  }
  if (typeof askAi === "string") askAi = { assistantId: askAi };
  if (panel.suggestedQuestions !== undefined) {
    askAi = { ...askAi, suggestedQuestions: panel.suggestedQuestions };
  }
  const base = resolveOptions({
    environment: options.environment,
    appId: options.appId,
    apiKey: options.apiKey,
    indices: options.indices,
    indexName: options.indexName,
    askAi,
    transformSearchClient: options.transformSearchClient,
    disableUserPersonalization: options.disableUserPersonalization,
    theme: options.theme,
    translations: options.translations?.modal && { modal: options.translations.modal },
    onReady: options.onReady,
    onOpen: options.onOpen,
    onClose: options.onClose,
  }) as ResolvedSidePanel["base"];
  const texts = {
    ...DEFAULT_TEXTS,
    ...options.panel?.translations?.header,
    ...options.button?.translations,
    ...options.translations?.header,
  };
  for (const [key, value] of Object.entries(texts)) {
    if (typeof value !== "string") {
      throw new Error(`\`translations.header.${key}\` must be a string`);
    }
  }
  const shortcut = options.keyboardShortcuts?.["Ctrl/Cmd+I"] ?? true;
  if (typeof shortcut !== "boolean") {
    throw new Error("`keyboardShortcuts.Ctrl/Cmd+I` must be a boolean");
  }
  return {
    base,
    variant: oneOf(panel.variant, "variant", ["floating", "inline"]),
    side: oneOf(panel.side, "side", ["right", "left"]),
    buttonVariant: oneOf(options.button?.variant, "button.variant", ["floating", "inline"]),
    width: cssWidth(panel.width, "width", "360px"),
    expandedWidth: cssWidth(panel.expandedWidth, "expandedWidth", "580px"),
    pushSelector: panel.pushSelector ?? "#root, main, .app, body",
    shortcut,
    hybrid: options.hybrid ?? true,
    texts,
  };
}

const PANEL_KEYS = [
  "variant",
  "side",
  "width",
  "expandedWidth",
  "pushSelector",
  "suggestedQuestions",
] as const;

/** The entries of `o` at `keys` that are not `undefined`. */
function defined(o: SidePanelOptions, keys: readonly (keyof SidePanelPanelOptions)[]) {
  return Object.fromEntries(keys.flatMap((k) => o[k] === undefined ? [] : [[k, o[k]]]));
}

function oneOf<T extends string>(value: unknown, name: string, values: T[]): T {
  if (value === undefined) return values[0];
  if (!values.includes(value as T)) {
    throw new Error(
      `\`${name}\` must be one of ${values.join(", ")}; got ${JSON.stringify(value)}`,
    );
  }
  return value as T;
}

function cssWidth(value: unknown, name: string, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value === "number" && value > 0) return `${value}px`;
  if (typeof value === "string" && value.trim() !== "") return value;
  throw new Error(`\`${name}\` must be a positive number (px) or a CSS width`);
}
