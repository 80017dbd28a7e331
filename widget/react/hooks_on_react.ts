/**
 * `preact/hooks` for the React build of the search box
 * (`scripts/bundle_react.ts` maps the specifier `preact/hooks` here): React's
 * hooks, which the components call with the same arguments and meaning.
 *
 * @module
 */
// @ts-types="@types/react"
export {
  useCallback,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
} from "react";
