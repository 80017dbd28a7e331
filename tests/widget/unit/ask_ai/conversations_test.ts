/// <reference lib="dom" />
/**
 * `widget/ask_ai/conversations.ts`: stored conversations, newest first, at
 * most MAX_CONVERSATIONS, under DocSearch's key and in its shape; the former
 * key (per application and index) moved over.
 */
import { assertEquals } from "@std/assert";
import {
  createConversationStorage,
  MAX_CONVERSATIONS,
} from "../../../../widget/ask_ai/conversations.ts";
import { MemoryStorage, windowWith } from "../fake_storage.ts";

const KEY = "__DOCSEARCH_ASKAI_CONVERSATIONS__docs";
const FORMER_KEY = "__DOCSEARCH_ASKAI_CONVERSATIONS__app-docs";
const conversation = (id: string) => ({ id, title: `title ${id}`, messages: [] });

function setup(disabled = false, local = new MemoryStorage()) {
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

Deno.test("stored in DocSearch's shape; DocSearch's entries read; the former key moved over", () => {
  const local = new MemoryStorage();
  const docsearch = { objectID: "d", query: "from DocSearch", messages: [], type: "askAI" };
  local.setItem(KEY, JSON.stringify([docsearch]));
  local.setItem(FORMER_KEY, JSON.stringify([conversation("old"), conversation("d")]));
  const { storage, ids } = setup(false, local);
  assertEquals(ids(), ["d", "old"]);
  assertEquals(storage.list()[0].title, "from DocSearch");
  assertEquals(JSON.parse(local.getItem(FORMER_KEY)!), [], "the former key is emptied");
  storage.save(conversation("n"));
  const [entry] = JSON.parse(local.getItem(KEY)!);
  assertEquals(
    [entry.objectID, entry.query, entry.type, entry.hierarchy.lvl0, entry.url],
    ["n", "title n", "askAI", "askAI", ""],
  );
});

Deno.test("disabled: nothing is read or written", () => {
  const { local, storage } = setup(true);
  storage.save(conversation("a"));
  assertEquals(storage.list(), []);
  assertEquals(local.length, 0);
});
