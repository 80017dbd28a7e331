/// <reference lib="dom" />
/**
 * `widget/ask_ai/markdown.ts`: answers' Markdown to sanitized HTML (in the
 * DOM of `happy-dom`, whose template element parses as a browser's), and the
 * links it keeps.
 */
import { assertEquals } from "@std/assert";
import { Window } from "happy-dom";
import { isSafeUrl, renderMarkdown } from "../../../../widget/ask_ai/markdown.ts";

const BASE = "https://docs.example/guide/";
const { document } = new Window({ url: BASE }) as unknown as { document: Document };

const render = (text: string) => renderMarkdown(text, document);

Deno.test("isSafeUrl: relative, http, https and mailto only", () => {
  for (const url of ["/x", "x.html", "https://a.example", "http://a.example", "mailto:a@b.c"]) {
    assertEquals(isSafeUrl(url, BASE), true, url);
  }
  for (const url of ["javascript:alert(1)", "data:text/html,x", "vbscript:x", "http://["]) {
    assertEquals(isSafeUrl(url, BASE), false, url);
  }
});

Deno.test("paragraphs, emphasis, code spans and blocks, headings, lists", () => {
  assertEquals(
    render("One **two**\n\nThree `four`").html,
    "<p>One <strong>two</strong></p><p>Three <code>four</code></p>",
  );
  assertEquals(render("## Title").html, "<h2>Title</h2>");
  assertEquals(render("- a\n- b").html, "<ul><li>a</li><li>b</li></ul>");
  assertEquals(
    render("```ts\nconst a = 1;\n\nconst b = a < 2;\n```").html,
    "<pre><code>const a = 1;\n\nconst b = a &lt; 2;</code></pre>",
  );
});

Deno.test("raw HTML never becomes an element outside the allow-list; script and style go", () => {
  const { html } = render(
    `a <img src=x onerror="alert(1)"> b <script>alert(2)</script><style>p{}</style>`,
  );
  assertEquals(html, "<p>a  b </p>");
  assertEquals(render(`<span onclick="x">text</span>`).html, "<p>text</p>");
});

Deno.test("attributes go, but a safe href; unsafe links lose it", () => {
  assertEquals(
    render(
      `[a](https://a.example) [b](javascript:alert%281%29) <a href="/c" onclick="x" title="t">c</a>`,
    ).html,
    `<p><a href="https://a.example">a</a> <a>b</a> <a href="/c">c</a></p>`,
  );
});

Deno.test("links: the safe ones of the HTML, in order, with their texts (or the URL)", () => {
  const { links } = render(
    `See [the guide](/docs/guide.html), [bad](javascript:x) and [**bold** text](https://b.example).\n\n[the guide](/docs/guide.html) again, <a href="https://c.example"></a>`,
  );
  assertEquals(links, [
    { url: "/docs/guide.html", title: "the guide" },
    { url: "https://b.example", title: "bold text" },
    { url: "/docs/guide.html", title: "the guide" },
    { url: "https://c.example", title: "https://c.example" },
  ]);
});
