/**
 * The global keyboard shortcuts (spec "KeyboardShortcuts"): `Ctrl/Cmd+K`
 * toggles the modal, also while the user types in the page's fields; `/` only
 * opens it, and not while the user types in an input, textarea, select or
 * contentEditable element; Escape always reaches `onEscape` while it is open.
 *
 * @module
 */

/** Which shortcuts are on; each defaults to `true`. */
export interface KeyboardShortcuts {
  /** Ctrl+K (Cmd+K on Apple platforms) opens and closes the modal; off also hides the button's hint. */
  "Ctrl/Cmd+K"?: boolean;
  /** `/` opens the modal (not while the user types in a field). */
  "/"?: boolean;
}

/** What the shortcuts act on. */
export interface ShortcutHandlers {
  isOpen(): boolean;
  open(): void;
  close(): void;
  /** Escape while open: closes, or leaves a sub-screen (Ask AI) first. */
  onEscape(): void;
}

/** Whether a key event's target is a place where the user types text. */
export function isEditable(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  if (!element || typeof element.tagName !== "string") return false;
  return element.isContentEditable ||
    ["INPUT", "TEXTAREA", "SELECT"].includes(element.tagName);
}

/** Listens for the shortcuts on `environment`; returns the function that stops listening. */
export function installShortcuts(
  environment: Window,
  shortcuts: Required<KeyboardShortcuts>,
  handlers: ShortcutHandlers,
): () => void {
  const onKeyDown = (event: KeyboardEvent) => {
    const key = event.key?.toLowerCase();
    const open = handlers.isOpen();
    if (key === "escape" && open) {
      event.preventDefault();
      handlers.onEscape();
    } else if (
      shortcuts["Ctrl/Cmd+K"] && key === "k" && (event.metaKey || event.ctrlKey)
    ) {
      event.preventDefault();
      if (open) handlers.close();
      else handlers.open();
    } else if (
      shortcuts["/"] && key === "/" && !open && !isEditable(event.target)
    ) {
      event.preventDefault();
      handlers.open();
    }
  };
  environment.addEventListener("keydown", onKeyDown);
  return () => environment.removeEventListener("keydown", onKeyDown);
}
