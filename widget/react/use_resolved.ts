/**
 * Options resolved from a React component's props, kept while the props hold
 * equal values: the hook with which `SearchBox` and `SidePanel` turn props
 * into the script package's resolved options.
 *
 * @module
 */
// @ts-types="@types/react"
import { useRef } from "react";

/**
 * Whether `a` and `b` are equal as props: the same value, or arrays or plain
 * objects (`indices={["docs"]}`, `translations={{...}}` written in the JSX,
 * new on each render) of equal values; functions and elements by identity.
 */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((value, i) => equal(value, b[i]));
  }
  if (!isPlain(a) || !isPlain(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => equal(a[key], b[key]));
}

function isPlain(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * The options resolved from `props` by `resolve`, kept while the props are
 * equal (see {@link equal}): a re-render of the page's components with equal
 * props keeps the search client, the storages and the shortcuts' listener.
 */
export function useResolved<P extends { portalContainer?: unknown }, R>(
  props: P,
  resolve: (options: Omit<P, "portalContainer">) => R,
): R {
  const last = useRef<{ props: P; options: R } | null>(null);
  if (!last.current || !equal(last.current.props, props)) {
    const { portalContainer: _, ...options } = props;
    last.current = { props, options: resolve(options) };
  }
  return last.current.options;
}
