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

/** Builds Preact elements from a tagged template (`htm` over Preact's `h`). */
export const html: Html = (htm as unknown as { bind(f: typeof h): Html }).bind(
  h,
);
