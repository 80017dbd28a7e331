/// <reference lib="dom" />
/**
 * `widget/shortcuts.ts`: Ctrl/Cmd+K toggles (also in fields), `/` only
 * opens and not while typing, Escape reaches `onEscape` while open; each
 * shortcut can be turned off; listening stops.
 */
import { assertEquals } from "@std/assert";
import { installShortcuts, isEditable } from "../../../widget/shortcuts.ts";

/** A keydown event with the given key fields, dispatched on `target` (bubbling). */
function press(
  env: EventTarget,
  init: { key: string; ctrlKey?: boolean; metaKey?: boolean },
  target?: unknown,
): boolean {
  const event = new Event("keydown", { cancelable: true });
  Object.assign(event, { metaKey: false, ctrlKey: false, ...init });
  if (target) Object.defineProperty(event, "target", { value: target });
  env.dispatchEvent(event);
  return event.defaultPrevented;
}

function setup(shortcuts = { "Ctrl/Cmd+K": true, "/": true }) {
  const env = new EventTarget();
  const calls: string[] = [];
  let open = false;
  const stop = installShortcuts(env as unknown as Window, shortcuts, {
    isOpen: () => open,
    open: () => (calls.push("open"), open = true),
    close: () => (calls.push("close"), open = false),
    onEscape: () => calls.push("escape"),
  });
  return { env, calls, stop };
}

const INPUT = { tagName: "INPUT", isContentEditable: false };

Deno.test("isEditable: inputs, textareas, selects and contentEditable elements", () => {
  for (const tagName of ["INPUT", "TEXTAREA", "SELECT"]) {
    assertEquals(isEditable({ tagName, isContentEditable: false } as never), true, tagName);
  }
  assertEquals(isEditable({ tagName: "DIV", isContentEditable: true } as never), true);
  assertEquals(isEditable({ tagName: "BUTTON", isContentEditable: false } as never), false);
  assertEquals(isEditable(null), false);
  assertEquals(isEditable(new EventTarget()), false);
});

Deno.test("Ctrl+K and Cmd+K toggle, even in a field; plain K does nothing", () => {
  const { env, calls } = setup();
  assertEquals(press(env, { key: "k", ctrlKey: true }), true);
  assertEquals(press(env, { key: "K", metaKey: true }, INPUT), true);
  assertEquals(press(env, { key: "k" }), false);
  assertEquals(calls, ["open", "close"]);
});

Deno.test("/ opens, never closes, and not while typing in a field", () => {
  const { env, calls } = setup();
  assertEquals(press(env, { key: "/" }, INPUT), false);
  assertEquals(press(env, { key: "/" }), true);
  assertEquals(press(env, { key: "/" }), false);
  assertEquals(calls, ["open"]);
});

Deno.test("Escape reaches onEscape only while open", () => {
  const { env, calls } = setup();
  assertEquals(press(env, { key: "Escape" }), false);
  press(env, { key: "/" });
  assertEquals(press(env, { key: "Escape" }), true);
  assertEquals(calls, ["open", "escape"]);
});

Deno.test("shortcuts turned off do nothing", () => {
  const { env, calls } = setup({ "Ctrl/Cmd+K": false, "/": false });
  press(env, { key: "k", ctrlKey: true });
  press(env, { key: "/" });
  assertEquals(calls, []);
});

Deno.test("the returned function stops listening", () => {
  const { env, calls, stop } = setup();
  stop();
  press(env, { key: "k", ctrlKey: true });
  assertEquals(calls, []);
});
