/**
 * The search box's icons: small stroked SVGs, hidden from assistive
 * technology (the controls carry the text).
 *
 * @module
 */
import type { VNode } from "preact";
import { html } from "./html.ts";

const icon = (d: string, size = 20) =>
  html`
    <svg width=${size} height=${size} viewBox="0 0 20 20"
      aria-hidden="true">
      <path d=${d} fill="none" stroke="currentColor" stroke-width="1.6"
        stroke-linecap="round" stroke-linejoin="round" />
    </svg>
  ` as VNode;

/**
 * Magnifier (button and search bar): DocSearch 4.7.1's `.DocSearch-Search-Icon`, a 24-unit
 * glyph drawn at 20 px with a 1.4 ring and a 1.6 handle (lighter than the other icons).
 */
export const searchIcon = (): VNode =>
  html`
    <svg class="DocSearch-Search-Icon" width="20" height="20" viewBox="0 0 24 24"
      aria-hidden="true" fill="none" stroke="currentColor">
      <circle cx="11" cy="11" r="8" stroke-width="1.4" />
      <path d="m21 21-4.3-4.3" stroke-width="1.6" stroke-linecap="round" />
    </svg>
  ` as VNode;
/** Spinner shown while results are late. */
export const loadingIcon = (): VNode => icon("M10 2a8 8 0 1 0 8 8");
/** Cross (clear, remove). */
export const closeIcon = (): VNode => icon("m5 5 10 10M15 5 5 15");
/** Page hit (`lvl1`). */
export const pageIcon = (): VNode => icon("M5 2h7l3 3v13H5zM8 8h4M8 11h4M8 14h4");
/** Section hit (`lvl2`-`lvl6`). */
export const hashIcon = (): VNode => icon("M8 3 6 17M14 3l-2 14M4 7h13M3 13h13");
/** Paragraph hit (`content`). */
export const contentIcon = (): VNode => icon("M4 5h12M4 9h12M4 13h8");
/**
 * Tree connector in front of a child hit, DocSearch v4's paths: the vertical
 * line goes on below the branch unless the hit is its parent's last child.
 */
export const treeIcon = (last: boolean): VNode =>
  html`
    <svg width="24" height="54" viewBox="0 0 24 54" aria-hidden="true">
      <path d=${last ? "M8 6v21M20 27H8.3" : "M8 6v42M20 27H8.3"} fill="none"
        stroke="currentColor" stroke-width="1.6" stroke-linecap="round"
        stroke-linejoin="round" />
    </svg>
  ` as VNode;
/** Enter key (select). */
export const enterIcon = (): VNode => icon("M16 4v5a2 2 0 0 1-2 2H4m4-4-4 4 4 4");
/** Recent search. */
export const recentIcon = (): VNode => icon("M10 18a8 8 0 1 0-8-8M10 5v5l3 2M2 6v4h4");
/** Favorite search, and the button that makes one. */
export const starIcon = (): VNode =>
  icon("m10 2 2.5 5 5.5.8-4 3.9 1 5.5-5-2.6-5 2.6 1-5.5-4-3.9 5.5-.8z");
/** Arrow keys of the footer. */
export const arrowIcon = (up: boolean): VNode =>
  icon(up ? "M10 16V4m-5 5 5-5 5 5" : "M10 4v12m-5-5 5 5 5-5", 14);
/** Empty and error screens. */
export const alertIcon = (): VNode =>
  icon("M10 6v5m0 3v.1M10 19a9 9 0 1 0 0-18 9 9 0 0 0 0 18Z", 40);
/** Ask AI. */
export const sparklesIcon = (): VNode =>
  icon("M10 2.5 11.6 8.4 17.5 10l-5.9 1.6L10 17.5l-1.6-5.9L2.5 10l5.9-1.6zM16 2v3m-1.5-1.5h3");
/** Left arrow of the Ask AI screen's back-to-keyword-search button. */
export const backIcon = (): VNode => icon("M16 10H4m5-5-5 5 5 5");
/** Vertical dots of the Ask AI menu (new conversation, history). */
export const moreIcon = (): VNode => icon("M10 4v.1M10 10v.1M10 16v.1");
/** Two sheets: the copy button under an Ask AI answer. */
export const copyIcon = (): VNode => icon("M7 7h10v10H7zM13 7V3H3v10h4");
/** A thumb up; the dislike button turns it over (CSS). */
export const thumbIcon = (): VNode =>
  icon("M6 9v8H3V9zm0 0 4-7a2 2 0 0 1 2 2v3h4a2 2 0 0 1 2 2l-1 6a2 2 0 0 1-2 2H6");
/** Stop (an answer streaming): a filled square. */
export const stopIcon = (): VNode =>
  html`
    <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true">
      <rect x="5" y="5" width="10" height="10" rx="2" fill="currentColor" />
    </svg>
  ` as VNode;
