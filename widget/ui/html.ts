/**
 * The `html` tagged-template helper: `htm` bound to Preact's `h`, so a template
 * written as `` html`<a href=${url}>${children}</a>` `` builds Preact elements
 * (values are never parsed as markup).
 *
 * @module
 */
import { h, type VNode } from "preact";
import htm from "htm/mini";

/** The type of {@link html}. */
export type Html = (
  strings: TemplateStringsArray,
  ...values: unknown[]
) => VNode | VNode[];

/**
 * Builds Preact elements from a tagged template (`htm` over Preact's `h`).
 * Interpolated values are never parsed as markup: a string is text, an
 * element or a list of them is inserted as such, and a component is
 * written `<${Component} prop=${value} />`.
 *
 * @example A `hitComponent` that links a hit and shows its type
 * ```ts
 * import { html, searchBox } from "@mikrogql/ext/widget";
 *
 * searchBox({
 *   container: "#search",
 *   appId: "YOUR_APP_ID",
 *   apiKey: "YOUR_SEARCH_API_KEY",
 *   indices: ["docs"],
 *   hitComponent: ({ hit, children }) =>
 *     html`<a href=${hit.url} data-type=${hit.type}>${children}</a>`,
 * });
 * ```
 */
export const html: Html = (htm as unknown as { bind(f: typeof h): Html }).bind(
  h,
);
