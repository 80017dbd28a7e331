/**
 * Which platform the page runs on, for the button's key hint (`⌘` on Apple
 * platforms, `Ctrl` elsewhere). A module of its own so that the React build
 * (`scripts/bundle_react.ts`) can swap it for `widget/react/platform_on_react.ts`,
 * which gives a server render and the hydrating render the same answer.
 *
 * @module
 */

/** Whether the page runs on an Apple platform (the Command key is `⌘`). */
export function isApple(environment: Window): boolean {
  return /Mac|iPhone|iPod|iPad/i.test(environment.navigator.platform);
}

/** {@link isApple}, called while a component renders. */
export function useApple(environment: Window): boolean {
  return isApple(environment);
}
