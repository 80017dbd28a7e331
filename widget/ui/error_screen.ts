/**
 * The error screen, shown when results cannot be fetched (network failure,
 * HTTP error): `translations.modal.errorScreen` texts.
 *
 * @module
 */
import type { VNode } from "preact";
import type { ErrorScreenTranslations } from "../translations.ts";
import { html } from "./html.ts";
import { alertIcon } from "./icons.ts";

/** The error screen. */
export function ErrorScreen(
  { translations }: { translations: ErrorScreenTranslations },
): VNode {
  return html`
    <div class="DocSearch-ErrorScreen">
      <div class="DocSearch-Screen-Icon">${alertIcon()}</div>
      <p class="DocSearch-Title">${translations.titleText}</p>
      <p class="DocSearch-Help">${translations.helpText}</p>
    </div>
  ` as VNode;
}
