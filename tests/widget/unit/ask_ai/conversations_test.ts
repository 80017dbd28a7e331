/// <reference lib="dom" />
/**
 * `widget/ask_ai/conversations.ts`: stored conversations, newest first, at
 * most MAX_CONVERSATIONS, keyed per application and index.
 */
import { assertEquals } from "@std/assert";
import {
  createConversationStorage,
  MAX_CONVERSATIONS,
} from "../../../../widget/ask_ai/conversations.ts";
import { MemoryStorage, windowWith } from "../fake_storage.ts";

const KEY = "__DOCSEARCH_ASKAI_CONVERSATIONS__app-docs";
const conversation = (id: string) => ({ id, title: `title ${id}`, messages: [] });

function setup(disabled = false) {
  const local = new MemoryStorage();
  const storage = createConversationStorage({
    environment: windowWith(local),
    appId: "app",
    indexName: "docs",
    disabled,
  });
  return { local, storage, ids: () => storage.list().map((c) => c.id) };
}

Deno.test("save moves a conversation to the top; remove drops it", () => {
  const { local, storage, ids } = setup();
  storage.save(conversation("a"));
  storage.save(conversation("b"));
  storage.save(conversation("a"));
  assertEquals(ids(), ["a", "b"]);
  assertEquals(JSON.parse(local.getItem(KEY)!).length, 2);
  storage.remove("a");
  assertEquals(ids(), ["b"]);
});

Deno.test("at most MAX_CONVERSATIONS; entries of another shape are dropped", () => {
  const { local, storage, ids } = setup();
  for (let i = 0; i <= MAX_CONVERSATIONS; i++) storage.save(conversation(`c${i}`));
  assertEquals(ids().length, MAX_CONVERSATIONS);
  assertEquals(ids()[0], `c${MAX_CONVERSATIONS}`);
  local.setItem(KEY, JSON.stringify([{ id: 1 }, { id: "x" }, conversation("ok")]));
  assertEquals(ids(), ["ok"]);
});

Deno.test("disabled: nothing is read or written", () => {
  const { local, storage } = setup(true);
  storage.save(conversation("a"));
  assertEquals(storage.list(), []);
  assertEquals(local.length, 0);
});
