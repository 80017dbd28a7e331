/**
 * `widget/ui/platform.ts` for the React build (`scripts/bundle_react.ts` maps
 * it here): `useApple` through `useSyncExternalStore`, whose server snapshot
 * (not Apple: no platform is known on a server) is also what the hydrating
 * render uses, so a server-rendered button hydrates without a mismatch and
 * then shows `⌘` on an Apple platform.
 *
 * @module
 */
// @ts-types="@types/react"
import { useSyncExternalStore } from "react";

/** Whether the page runs on an Apple platform (the Command key is `⌘`). */
export function isApple(environment: Window): boolean {
  return /Mac|iPhone|iPod|iPad/i.test(environment.navigator.platform);
}

const unchanging = () => () => {};

/** {@link isApple} in the browser; `false` on a server and while hydrating. */
export function useApple(environment: Window): boolean {
  return useSyncExternalStore(unchanging, () => isApple(environment), () => false);
}
