/// <reference lib="dom" />
/**
 * A Web Storage stand-in for the unit tests of the search box's storage
 * modules: a `Storage` over a `Map`, and windows whose `localStorage` and
 * `sessionStorage` are such stores, or throw.
 *
 * @module
 */

/** `Storage` over a `Map`; `full` makes `setItem` throw `QuotaExceededError`. */
export class MemoryStorage implements Storage {
  readonly items = new Map<string, string>();
  full = false;
  get length(): number {
    return this.items.size;
  }
  clear(): void {
    this.items.clear();
  }
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
  setItem(key: string, value: string): void {
    if (this.full) throw new DOMException("full", "QuotaExceededError");
    this.items.set(key, String(value));
  }
}

/** A window whose `localStorage` and `sessionStorage` are the given stores. */
export function windowWith(
  local: Storage = new MemoryStorage(),
  session: Storage = new MemoryStorage(),
): Window {
  return { localStorage: local, sessionStorage: session } as unknown as Window;
}

/** A window whose storages throw `SecurityError` on access (storage forbidden). */
export function forbiddenWindow(): Window {
  const deny = () => {
    throw new DOMException("denied", "SecurityError");
  };
  return Object.defineProperties({}, {
    localStorage: { get: deny },
    sessionStorage: { get: deny },
  }) as unknown as Window;
}
