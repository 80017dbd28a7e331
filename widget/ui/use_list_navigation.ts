/**
 * Keyboard navigation across the rows of the modal's list (a combobox with
 * `aria-activedescendant`): ArrowDown / ArrowUp move the active row, wrapping
 * around; Enter selects it, except while an input method composes text.
 *
 * @module
 */
import { useState } from "preact/hooks";

/**
 * The active row of `count` rows (0 first), its setter and the input's
 * `keydown` handler; Enter calls `onEnter` with the active row.
 */
export function useListNavigation(
  count: number,
  onEnter: (active: number, event: KeyboardEvent) => void,
): [active: number, setActive: (row: number) => void, onKeyDown: (event: KeyboardEvent) => void] {
  const [active, setActive] = useState(0);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (count === 0) return;
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((active + step + count) % count);
    } else if (event.key === "Enter") {
      event.preventDefault();
      if (!event.isComposing && event.keyCode !== 229) onEnter(active, event);
    }
  };
  return [active, setActive, onKeyDown];
}
