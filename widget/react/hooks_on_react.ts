/**
 * `preact/hooks` for the React build of the search box
 * (`scripts/bundle_react.ts` maps the specifier `preact/hooks` here): React's
 * hooks, which the components call with the same arguments and meaning.
 * `useLayoutEffect` is React's `useEffect` where there is no `document` (a
 * server render, where neither runs and React 18 warns about the former).
 *
 * @module
 */
// @ts-types="@types/react"
import { useEffect, useLayoutEffect as useReactLayoutEffect } from "react";

export { useEffect, useMemo, useRef, useState } from "react";

/** React's `useLayoutEffect` in a browser, `useEffect` on a server. */
export const useLayoutEffect: typeof useReactLayoutEffect = typeof document === "undefined"
  ? useEffect
  : useReactLayoutEffect;
