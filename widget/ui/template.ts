/**
 * Renders an integrator's template (spec rule 3) as DocSearch 4.7.1 does:
 * the function gets its props and `{html}`, and returns an element (from
 * `html`, which never parses interpolated values as markup, or JSX), a
 * component to render with the same props, or a plain string, which is text
 * (in a `span`): markup comes only through `html` or an element, never from
 * a string, so index content a template puts in a string cannot inject any.
 *
 * @module
 */
import { type ComponentChildren, h } from "preact";
import type { Template } from "../options.ts";
import { html } from "./html.ts";

/** What `template(props, {html})` renders. */
export function renderTemplate<P extends object>(
  template: Template<P>,
  props: P,
): ComponentChildren {
  const result = template(props, { html });
  if (typeof result === "string") return h("span", null, result);
  if (typeof result === "function") return h(result, props as Record<string, unknown>);
  return result;
}
