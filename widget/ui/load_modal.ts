/**
 * Loading of the modal's chunk (`./search_modal.ts`): one `import()` shared
 * by every search box of the page, retried after a failure, and the idle-time
 * prefetch that makes the first opening instant in practice.
 *
 * @module
 */

/** The modal's chunk. */
export type ModalModule = typeof import("./search_modal.ts");

let loading: Promise<ModalModule> | null = null;
let loaded: ModalModule | null = null;

/** The modal's chunk, when it has already arrived. */
export function loadedModal(): ModalModule | null {
  return loaded;
}

/** Imports the modal's chunk (once; a failed import is tried again on the next call). */
export function loadModal(): Promise<ModalModule> {
  return loading ??= import("./search_modal.ts").then((module) => loaded = module, (error) => {
    loading = null;
    throw error;
  });
}

/**
 * Calls `load` when `environment` is idle (`requestIdleCallback`, at the
 * latest after 5 s of a busy page), or after 1 s where the browser has no
 * idle callbacks; returns the function that cancels it.
 */
export function whenIdle(environment: Window, load: () => void): () => void {
  if (typeof environment.requestIdleCallback === "function") {
    const id = environment.requestIdleCallback(load, { timeout: 5000 });
    return () => environment.cancelIdleCallback(id);
  }
  const id = environment.setTimeout(load, 1000);
  return () => environment.clearTimeout(id);
}
