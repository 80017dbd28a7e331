/**
 * Renders a highlighted or snippeted value from the search API. Only the
 * `<mark>` and `</mark>` tags become elements; everything else in the value,
 * tags and attributes included, is shown as text and never interpreted; the
 * character references crawlers leave in records (`Q&amp;A`) are decoded to
 * their characters, still as text.
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import { decodeEntities } from "../entities.ts";
import { html } from "./html.ts";

/** Elements for `value`: `<mark>` runs as `mark` elements, the rest as text (references decoded). */
export function Highlight({ value }: { value: string }): ComponentChildren {
  return value.split(/(<mark>[\s\S]*?<\/mark>)/).map((part) =>
    /^<mark>[\s\S]*<\/mark>$/.test(part)
      ? html`<mark>${decodeEntities(part.slice(6, -7))}</mark>`
      : decodeEntities(part)
  );
}
