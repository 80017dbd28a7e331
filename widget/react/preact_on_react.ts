/**
 * `preact` for the React build of the search box (`scripts/bundle_react.ts`
 * maps the specifier `preact` here): the `h` that the search box's
 * components call (through the `html` helper, `htm` bound to `h`) makes
 * React elements, translating what Preact accepts and React does not:
 *
 * - attribute names: `class` → `className`, `for` → `htmlFor`, the
 *   lowercase HTML names (`tabindex`, `maxlength`, `autocomplete`, ...) and
 *   the kebab-case SVG ones (`stroke-width`) to React's camelCase;
 * - `value` of an input: Preact writes it to the element on each render
 *   where it differs from the element's value and leaves the element alone
 *   otherwise (the modal's shell keeps what the user types without
 *   re-rendering); React's controlled input would put the old value back, so
 *   the input is left uncontrolled and a ref sets `value` after each
 *   render, as Preact does;
 * - `onKeyDown` gets React's event with the native `isComposing` (React's
 *   keyboard event lacks it);
 * - a list (htm's several-root template, a `map`) as a child or as what a
 *   component returns is a fragment with the items as its children, so React
 *   reconciles them by their keys where they have any and asks for none
 *   where they have not, as Preact does.
 *
 * Only the runtime values the components import from `preact` are here
 * (`h`, `render` for the Preact-only `Portal`); their type imports are
 * erased by the bundler.
 *
 * @module
 */
// @ts-types="@types/react"
import * as React from "react";

type Props = Record<string, unknown> | null;
type Component = (props: Record<string, unknown>) => unknown;

/** Lowercase HTML attribute names the components write, by React's name. */
const NAMES: Record<string, string> = {
  class: "className",
  for: "htmlFor",
  tabindex: "tabIndex",
  maxlength: "maxLength",
  autocomplete: "autoComplete",
  autocapitalize: "autoCapitalize",
  spellcheck: "spellCheck",
  enterkeyhint: "enterKeyHint",
  readonly: "readOnly",
  colspan: "colSpan",
  rowspan: "rowSpan",
};

/** `stroke-width` → `strokeWidth`; `aria-*` and `data-*` stay as they are. */
function reactName(name: string): string {
  const known = NAMES[name];
  if (known) return known;
  if (name.includes("-") && !name.startsWith("aria-") && !name.startsWith("data-")) {
    return name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
  }
  return name;
}

/** A child as React takes it: a list becomes a fragment of its items. */
function child(node: unknown): unknown {
  return Array.isArray(node)
    ? React.createElement(React.Fragment, null, ...node.map(child) as React.ReactNode[])
    : node;
}

/** The wrapper of each function component, so that a list it returns is a fragment. */
const wrappers = new WeakMap<Component, Component>();

function wrap(component: Component): Component {
  let wrapper = wrappers.get(component);
  if (!wrapper) {
    wrapper = (props) => child(component(props));
    Object.defineProperty(wrapper, "name", { value: component.name });
    wrappers.set(component, wrapper);
  }
  return wrapper;
}

/** Sets the element `ref` gets and hands it on to `ref` (an object or a function ref). */
function withValue(ref: unknown, value: unknown) {
  return (element: HTMLInputElement | null) => {
    if (element && value !== undefined && element.value !== String(value)) {
      element.value = String(value);
    }
    if (typeof ref === "function") ref(element);
    else if (ref && typeof ref === "object") (ref as { current: unknown }).current = element;
  };
}

/** Preact's `h`, making React elements (see the module's documentation). */
export function h(type: unknown, props: Props, ...children: unknown[]): unknown {
  const input = type === "input" || type === "textarea";
  const translated: Record<string, unknown> = {};
  for (const name in props) {
    const value = props[name];
    if (input && (name === "value" || name === "ref")) continue;
    if (name === "onKeyDown" && typeof value === "function") {
      translated.onKeyDown = (event: React.KeyboardEvent) => {
        (event as unknown as { isComposing: boolean }).isComposing = event.nativeEvent.isComposing;
        return value(event);
      };
    } else translated[typeof type === "string" ? reactName(name) : name] = value;
  }
  if (input && props) {
    // a new function on each render: React calls it after each commit, as Preact sets `value`
    translated.ref = withValue(props.ref, props.value);
  }
  const elementType = typeof type === "function" ? wrap(type as Component) : type;
  return React.createElement(
    elementType as React.ElementType,
    translated,
    ...children.map(child) as React.ReactNode[],
  );
}

/** Preact's `createElement`, the same as {@link h}. */
export const createElement = h;

/** Preact's `Fragment`: React's. */
export const Fragment = React.Fragment;

/**
 * Preact's `render`, used only by the Preact component's `Portal`, which the
 * React component does not render (it portals with React's `createPortal`).
 *
 * @throws {Error} always.
 */
export function render(): never {
  throw new Error("the React search box renders through React; preact's render is not bundled");
}
