/**
 * Web Storage that never throws: a string item and a JSON list on top of it.
 * Every failure of the storage (unavailable, forbidden, corrupt, full) is
 * swallowed: reads then give nothing (`null`, `[]`) and writes are skipped,
 * so the search box keeps working. Used by the recent and favorite searches
 * (`./storage.ts`), the Ask AI conversations and the Ask AI token.
 *
 * @module
 */

/** One string item in `localStorage` or `sessionStorage`. */
export interface StoredItem {
  /** The stored string, or `null` when absent, disabled or unreadable. */
  get(): string | null;
  /** Stores `value`; does nothing when disabled, forbidden or full. */
  set(value: string): void;
}

/** A JSON list in one storage item. */
export interface StoredList<T> {
  /** The stored entries that pass the check, `[]` when absent, corrupt or not a list. */
  read(): T[];
  /** Stores `list` as JSON; does nothing when disabled, forbidden or full. */
  write(list: T[]): void;
}

/** The item `key` of `environment[area]`; with `disabled`, nothing is read or written. */
export function storedItem(
  environment: Window,
  area: "localStorage" | "sessionStorage",
  key: string,
  disabled = false,
): StoredItem {
  return {
    get() {
      try {
        return disabled ? null : environment[area].getItem(key);
      } catch {
        return null;
      }
    },
    set(value) {
      try {
        if (!disabled) environment[area].setItem(key, value);
      } catch {
        // full or forbidden storage: not remembered
      }
    },
  };
}

/** A JSON list kept in `item`; `isEntry` drops the entries that are not of the expected shape. */
export function storedList<T>(
  item: StoredItem,
  isEntry: (value: unknown) => boolean,
): StoredList<T> {
  return {
    read() {
      try {
        const list: unknown = JSON.parse(item.get() ?? "[]");
        return Array.isArray(list) ? list.filter(isEntry) : [];
      } catch {
        return [];
      }
    },
    write: (list) => item.set(JSON.stringify(list)),
  };
}
