/**
 * Global ids in the three formats, on the examples' generated graphs: opaque ids are RFC 4648 §5
 * base64url (no padding) of the UTF-8 text `<Type>:<key>` (checked with `@std/encoding`) and
 * decode back to their type and a key of the type's kind; universal ids name their type by the
 * key's 2^32 range; raw ids by the `nodeType` hook, the `IdPrefix`, or the only string-keyed
 * type; composite keys travel as JSON arrays and select their row by every part.
 */
import { assertEquals, assertThrows } from "@std/assert";
import { decodeBase64Url, encodeBase64Url } from "@std/encoding/base64url";
import { type Graph, withHooks } from "../../../runtime/graph.ts";
import {
  decodeGlobalId,
  encodeGlobalId,
  globalIdOf,
  isOfType,
} from "../../../runtime/plan/global_id.ts";
import { keyFilter, keysFilter, primaryKeyOf } from "../../../runtime/keys.ts";
import { graph as blog } from "../../../examples/blog/generated/node.ts";
import { graph as shop } from "../../../examples/shop/generated/node.ts";
import { graph as raw } from "../../../examples/todo/variants/raw/generated/node.ts";
import { graph as universal } from "../../../examples/todo/variants/universal/generated/node.ts";

const text = (id: string) => new TextDecoder().decode(decodeBase64Url(id));
const opaque = (value: string) => encodeBase64Url(new TextEncoder().encode(value));

Deno.test("encodeGlobalId: base64url of the UTF-8 text <Type>:<key>, no padding", () => {
  for (
    const [type, pk] of [["Post", 1], ["User", 1234567], ["Tag", "é 日本"], ["T", -1]] as const
  ) {
    const id = encodeGlobalId(type, pk);
    assertEquals(id, opaque(`${type}:${pk}`));
    assertEquals(text(id), `${type}:${pk}`);
  }
  assertEquals(encodeGlobalId("Post", 1), "UG9zdDox");
  assertEquals(encodeGlobalId("Big", 2n ** 63n - 1n), opaque("Big:9223372036854775807"));
});

Deno.test("opaque ids: every type's id decodes to its type and key; malformed ids to undefined", () => {
  for (const graph of [blog, shop]) {
    for (const type of Object.values(graph.types)) {
      const pk = type.id.parts
        ? JSON.stringify(type.id.parts.map((p, i) => p.kind === "int" ? i + 1 : `k${i + 1}`))
        : type.id.kind === "int"
        ? 7
        : "k7";
      const id = globalIdOf(graph, type, pk);
      assertEquals(id, encodeGlobalId(type.name, pk));
      const decoded = decodeGlobalId(graph, id);
      assertEquals([decoded?.type.name, decoded?.pk], [type.name, pk], type.name);
    }
  }
  const Post = blog.types.Post;
  for (
    const id of [
      opaque("Nope:1"), // no such type
      opaque("Post:x"), // not an integer key
      opaque("Post:1.5"),
      opaque("Post:9007199254740993"), // beyond a safe integer
      opaque("Post:"),
      opaque(":1"),
      opaque("Post1"),
      "UG9zdDox=", // padding
      "UG9zdDox+", // not the URL alphabet
      "",
    ]
  ) {
    assertEquals(decodeGlobalId(blog, id), undefined, JSON.stringify(id));
  }
  assertEquals(decodeGlobalId(blog, opaque("Post:-3")), { type: Post, pk: -3 });
});

Deno.test("universal ids: the key's 2^32 range names the type in the type table", () => {
  const table = ["Category", "Todo"]; // what setupUniversalIds records
  const graph = withHooks(universal, { universalIds: table });
  assertEquals(globalIdOf(graph, graph.types.Todo, "4294967301"), "4294967301");
  assertEquals(decodeGlobalId(graph, "5"), { type: graph.types.Category, pk: "5" });
  assertEquals(decodeGlobalId(graph, String(2 ** 32)), {
    type: graph.types.Todo,
    pk: "4294967296",
  });
  assertEquals(decodeGlobalId(graph, String(2 ** 32 - 1))?.type.name, "Category");
  assertEquals(decodeGlobalId(graph, "9223372036854775807"), undefined); // a range no type owns
  for (const id of ["-1", "1.0", "x", "", "UG9zdDox"]) {
    assertEquals(decodeGlobalId(graph, id), undefined, id);
  }
  const error = assertThrows(() => decodeGlobalId(universal, "1"), Error);
  assertEquals(
    error.message,
    "universal global ids need the type table: createSchema({ universalIds: await setupUniversalIds(em, graph) })",
  );
});

Deno.test("raw ids: the nodeType hook, then the IdPrefix, then the only string-keyed type", () => {
  const Todo = raw.types.Todo;
  assertEquals(globalIdOf(raw, Todo, "todo_01HX"), "todo_01HX");
  assertEquals(decodeGlobalId(raw, "todo_01HX"), { type: Todo, pk: "todo_01HX" });
  // Category and User both have unprefixed string keys: without the hook, no type.
  assertEquals(decodeGlobalId(raw, "0b6d3c9e-0000-4000-8000-000000000000"), undefined);
  const hooked: Graph = withHooks(raw, {
    nodeType: (id) => (id.startsWith("u-") ? "User" : undefined),
  });
  assertEquals(decodeGlobalId(hooked, "u-1")?.type.name, "User");
  assertEquals(decodeGlobalId(hooked, "todo_1")?.type.name, "Todo"); // the hook said undefined
  assertEquals(decodeGlobalId(hooked, "x")?.type.name, undefined);
  assertEquals(decodeGlobalId(withHooks(raw, { nodeType: () => "Nope" }), "todo_1"), undefined);
  assertEquals(decodeGlobalId(withHooks(raw, { nodeType: () => "Category" }), ""), undefined);
  // With a single unprefixed string-keyed type, every other id is that type's.
  const single: Graph = {
    ...raw,
    types: { Todo, User: raw.types.User },
  };
  assertEquals(decodeGlobalId(single, "anything")?.type.name, "User");
});

Deno.test("composite keys: JSON arrays of their parts, a filter on every part", () => {
  const Contribution = shop.types.Contribution;
  const id = encodeGlobalId("Contribution", "[1,2]");
  assertEquals(text(id), "Contribution:[1,2]");
  assertEquals(decodeGlobalId(shop, id), { type: Contribution, pk: "[1,2]" });
  for (const bad of ["[1]", "[1,2,3]", '["1",2]', "[1.5,2]", "1,2", "{}"]) {
    assertEquals(decodeGlobalId(shop, opaque(`Contribution:${bad}`)), undefined, bad);
  }
  assertEquals(keyFilter(Contribution, "[1,2]"), { book: 1, author: 2 });
  assertEquals(keysFilter(Contribution, ["[1,2]", "[3,4]"]), {
    $or: [{ book: 1, author: 2 }, { book: 3, author: 4 }],
  });
  assertEquals(primaryKeyOf(Contribution, { book: 1, author: 2, role: "x" }), "[1,2]");
  // Single keys
  const Post = blog.types.Post;
  assertEquals(keyFilter(Post, 5), { id: 5 });
  assertEquals(keysFilter(Post, [5, 6]), { id: { $in: [5, 6] } });
  assertEquals(primaryKeyOf(Post, { id: 5, title: "t" }), 5);
});

Deno.test("isOfType: the type itself, or a class of the inheritance root", () => {
  assertEquals(isOfType(shop.types.CardPayment, "CardPayment"), true);
  assertEquals(isOfType(shop.types.CardPayment, "Payment"), true);
  assertEquals(isOfType(shop.types.CardPayment, "Order"), false);
  assertEquals(isOfType(blog.types.Post, "User"), false);
});
