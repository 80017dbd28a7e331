/**
 * Declarations of `@mikrogql/searchbox-react/sidepanel` (`widget/react/sidepanel.ts`), written
 * by hand as the package's others (`tests/widget/react/types_test.ts` checks them).
 */
import type { ReactElement } from "react";
import type {
  AskAiOptions,
  IndexEntry,
  PartialTranslations,
  SearchClient,
} from "./searchbox-react.d.ts";

/** Where and how the Sidepanel's panel shows. */
export interface SidePanelPanelProps {
  variant?: "floating" | "inline";
  side?: "left" | "right";
  /** px number or any CSS width; default `360px`. */
  width?: number | string;
  /** px number or any CSS width; default `580px`. */
  expandedWidth?: number | string;
  /** What `inline` pushes aside; default `#root, main, .app, body`. */
  pushSelector?: string;
  suggestedQuestions?: boolean;
}

/** Texts of the Sidepanel's button and header. */
export interface SidePanelTexts {
  buttonText?: string;
  buttonAriaLabel?: string;
  title?: string;
  expandText?: string;
  collapseText?: string;
  closeText?: string;
}

/** Props of {@link SidePanel}. */
export interface SidePanelProps extends SidePanelPanelProps {
  /** Node the panel mounts into (a React portal); default `document.body`. */
  portalContainer?: Element | DocumentFragment;
  environment?: Window;
  appId: string;
  apiKey: string;
  indices?: Array<string | IndexEntry>;
  indexName?: string;
  askAi?: string | AskAiOptions;
  /** DocSearch's name for the assistant ID. */
  assistantId?: string;
  panel?: SidePanelPanelProps & { translations?: { header?: SidePanelTexts } };
  button?: {
    variant?: "floating" | "inline";
    translations?: Pick<SidePanelTexts, "buttonText" | "buttonAriaLabel">;
  };
  keyboardShortcuts?: { "Ctrl/Cmd+I"?: boolean };
  translations?: { header?: SidePanelTexts; modal?: PartialTranslations["modal"] };
  /** The search box's Ask AI opens in the panel while it is mounted; default `true`. */
  hybrid?: boolean;
  transformSearchClient?: (client: SearchClient) => SearchClient;
  disableUserPersonalization?: boolean;
  theme?: "light" | "dark" | "auto";
  onReady?: () => void;
  onOpen?: () => void;
  onClose?: () => void;
}

/** The Sidepanel: its button, `Ctrl/Cmd+I` and, while open, the Ask AI panel in `portalContainer`. */
export declare function SidePanel(props: SidePanelProps): ReactElement;
