/// <reference lib="dom" />
/**
 * `widget/stored_list.ts`: a storage item and a JSON list that never throw,
 * over a working, disabled, full, forbidden or corrupt storage.
 */
import { assertEquals } from "@std/assert";
import { storedItem, storedList } from "../../../widget/stored_list.ts";
import { forbiddenWindow, MemoryStorage, windowWith } from "./fake_storage.ts";

const isNumber = (value: unknown) => typeof value === "number";

Deno.test("storedItem reads and writes the key of the chosen storage", () => {
  const local = new MemoryStorage();
  const session = new MemoryStorage();
  const env = windowWith(local, session);
  const item = storedItem(env, "sessionStorage", "k");
  assertEquals(item.get(), null);
  item.set("v");
  assertEquals(item.get(), "v");
  assertEquals(session.getItem("k"), "v");
  assertEquals(local.length, 0);
});

Deno.test("storedItem disabled reads nothing and writes nothing", () => {
  const local = new MemoryStorage();
  local.setItem("k", "old");
  const item = storedItem(windowWith(local), "localStorage", "k", true);
  assertEquals(item.get(), null);
  item.set("new");
  assertEquals(local.getItem("k"), "old");
});

Deno.test("storedItem swallows a forbidden or full storage", () => {
  const forbidden = storedItem(forbiddenWindow(), "localStorage", "k");
  assertEquals(forbidden.get(), null);
  forbidden.set("v");
  const full = new MemoryStorage();
  full.full = true;
  const item = storedItem(windowWith(full), "localStorage", "k");
  item.set("v");
  assertEquals(item.get(), null);
});

Deno.test("storedList keeps JSON lists, dropping entries that fail the check", () => {
  const local = new MemoryStorage();
  const list = storedList<number>(storedItem(windowWith(local), "localStorage", "k"), isNumber);
  assertEquals(list.read(), []);
  list.write([1, 2]);
  assertEquals(local.getItem("k"), "[1,2]");
  assertEquals(list.read(), [1, 2]);
  local.setItem("k", '[1,"two",3]');
  assertEquals(list.read(), [1, 3]);
});

Deno.test("storedList reads a corrupt or non-list item as empty", () => {
  const local = new MemoryStorage();
  const list = storedList<number>(storedItem(windowWith(local), "localStorage", "k"), isNumber);
  for (const stored of ["{not json", '{"a":1}', "null", "3"]) {
    local.setItem("k", stored);
    assertEquals(list.read(), [], stored);
  }
});
