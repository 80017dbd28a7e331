/**
 * Renders an integrator's template (spec rule 3): the function gets its props
 * and `{html}`, and returns an element (from `html` or JSX), a component to
 * render with the same props, or an HTML string, which is the integrator's own
 * markup and is inserted as such.
 *
 * @module
 */
import { type ComponentChildren, h } from "preact";
import type { Template } from "../options.ts";
import { html } from "./html.ts";

/** The element for `template(props, {html})`; `className` wraps an HTML string. */
export function renderTemplate<P extends object>(
  template: Template<P>,
  props: P,
  className: string,
): ComponentChildren {
  const result = template(props, { html });
  if (typeof result === "string") {
    return h("div", {
      class: className,
      dangerouslySetInnerHTML: { __html: result },
    });
  }
  if (typeof result === "function") {
    return h(result, props as Record<string, unknown>);
  }
  return result;
}
