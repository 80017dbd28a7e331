/**
 * `widget/ask_ai/markdown.ts`: answers' Markdown to HTML whose only elements
 * are the Markdown's (the cases of DocSearch v4's own markdown test,
 * `parseMarkdownToSafeHtml`, and the breakouts that got through before:
 * an HTML attribute in a fenced block's info string, HTML inside
 * emphasis), and the related sources of an answer.
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { answerSources, isSafeUrl, renderMarkdown } from "../../../../widget/ask_ai/markdown.ts";

const BASE = "https://docs.example/guide/";
const render = (text: string) => renderMarkdown(text, BASE);

/** The tag names of the elements in `html` (the renderer's output is well-formed). */
const tags = (html: string) => [...html.matchAll(/<([a-z][a-z0-9]*)\b/g)].map((m) => m[1]);

Deno.test("isSafeUrl: relative, http, https and mailto only", () => {
  for (const url of ["/x", "x.html", "https://a.example", "http://a.example", "mailto:a@b.c"]) {
    assertEquals(isSafeUrl(url, BASE), true, url);
  }
  for (const url of ["javascript:alert(1)", "data:text/html,x", "vbscript:x", "http://["]) {
    assertEquals(isSafeUrl(url, BASE), false, url);
  }
});

Deno.test("paragraphs, emphasis, code spans, headings, lists", () => {
  assertEquals(
    render("One **two**\n\nThree `four`"),
    "<p>One <strong>two</strong></p><p>Three <code>four</code></p>",
  );
  assertEquals(render("## Title"), "<h2>Title</h2>");
  assertEquals(render("- a\n- b"), "<ul><li>a</li><li>b</li></ul>");
  assertEquals(render("> quoted"), "<blockquote>quoted</blockquote>");
});

Deno.test("raw HTML is escaped to text: event handlers cannot run (DocSearch: escapes raw HTML)", () => {
  const html = render("<img src=x onerror=alert(1)>");
  assert(!/<img\b/i.test(html), html);
  assertStringIncludes(html, "&lt;img src=x onerror=alert(1)>");
  assertEquals(tags(html), ["p"]);
});

Deno.test("inline script tags are escaped (DocSearch: escapes inline script tags)", () => {
  const html = render("a <script>alert(1)</script> b");
  assert(!html.includes("<script>"), html);
  assertStringIncludes(html, "&lt;script>");
});

Deno.test("HTML inside emphasis stays text inside one <strong>", () => {
  assertEquals(
    render("A **<img src=x onerror=alert(1)>** B"),
    "<p>A <strong>&lt;img src=x onerror=alert(1)></strong> B</p>",
  );
  assertEquals(tags(render("*<b>x</b>* and __<i>y</i>__")), ["p", "em", "strong"]);
});

Deno.test("underscores inside words are text, as CommonMark has them; __x__ and _x_ emphasis", () => {
  assertEquals(
    render("snake_case and window.__pwned='x' then parent.__pwned"),
    "<p>snake&#95;case and window.&#95;&#95;pwned='x' then parent.&#95;&#95;pwned</p>",
  );
  assertEquals(render("__bold__ and _em_"), "<p><strong>bold</strong> and <em>em</em></p>");
});

Deno.test("no javascript: link or image (DocSearch: does not emit javascript: links/images)", () => {
  const link = render(`[click](javascript${":"}alert(1))`);
  assert(!link.includes(`javascript${":"}`), link);
  assert(!link.includes("<a "), link);
  assertStringIncludes(link, "click");
  const image = render(`![x](javascript${":"}alert(1))`);
  assert(!image.includes(`javascript${":"}`), image);
  assert(!image.includes("<img"), image);
  assertEquals(render("![a diagram](https://a.example/d.png)"), "<p>a diagram</p>");
});

Deno.test("safe links open in a new tab (DocSearch: keeps safe markdown links and formatting)", () => {
  const html = render("See [DocSearch](https://docsearch.algolia.com) and **bold**");
  assertStringIncludes(html, 'href="https://docsearch.algolia.com"');
  assertStringIncludes(html, 'target="_blank"');
  assertStringIncludes(html, 'rel="noopener noreferrer"');
  assertStringIncludes(html, "<strong>bold</strong>");
  assertEquals(
    render('[a](/x?a=1&b="2")'),
    '<p><a href="/x?a=1&amp;b=&quot;2&quot;" target="_blank" rel="noopener noreferrer">a</a></p>',
  );
});

Deno.test("fenced code blocks keep their escaped content (DocSearch: still renders fenced code)", () => {
  const html = render('```js\nconst x = "<script>"\n```');
  assertStringIncludes(html, "DocSearch-CodeSnippet");
  assertStringIncludes(html, "language-js");
  assertStringIncludes(html, "&lt;script&gt;");
  assertEquals(
    render("```ts\nconst a = 1;\n\nconst b = a < 2 && a > 0;\n```"),
    '<pre class="DocSearch-CodeSnippet"><code class="language-ts">const a = 1;\n\n' +
      "const b = a &lt; 2 &amp;&amp; a &gt; 0;</code></pre>",
  );
});

Deno.test("a fenced block's info string cannot break out (DocSearch: no breakout via the lang)", () => {
  for (
    const text of [
      '```"><img src=x onerror=alert(1)>\nx\n```',
      '```js" onmouseover="alert(1)\n<b>bold</b>\n```',
    ]
  ) {
    const html = render(text);
    assert(!/<img\b/i.test(html), html);
    assert(!html.includes('language-">'), html);
    assert(!html.includes("onmouseover="), html);
    assertEquals(tags(html), ["pre", "code"], html);
  }
  assertStringIncludes(
    render('```js" onmouseover="alert(1)\n<b>x</b>\n```'),
    "&lt;b&gt;x&lt;/b&gt;",
  );
});

Deno.test("an unterminated fence runs to the end of the answer (a streaming answer)", () => {
  assertEquals(
    render("Text\n\n```sh\ndeno task <x>"),
    '<p>Text</p><pre class="DocSearch-CodeSnippet"><code class="language-sh">deno task &lt;x&gt;</code></pre>',
  );
});

Deno.test("related sources: Markdown links, then bare URLs, outside code, each once", () => {
  const text = [
    "See [the guide](/docs/guide.html) and [bad](javascript:x).",
    "More at https://b.example/page, and (https://c.example/x).",
    "Not `https://code.example/span` nor:",
    "```",
    "https://code.example/block [t](https://code.example/link)",
    "```",
    "Again [the guide](/docs/guide.html) and https://b.example/page.",
  ].join("\n");
  assertEquals(answerSources(text, BASE), [
    { url: "/docs/guide.html", title: "the guide" },
    { url: "https://b.example/page", title: "https://b.example/page" },
    { url: "https://c.example/x", title: "https://c.example/x" },
  ]);
});
