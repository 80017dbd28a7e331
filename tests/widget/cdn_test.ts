/// <reference lib="dom" />
/**
 * The search box from a CDN, as docs/search-box.md's snippet loads it: `deno task bundle`, then
 * the file set that `deno publish --dry-run` lists (not the repository) is
 * served from one 127.0.0.1 origin as a CDN serves a package's files, and
 * docs/search-box.md's CDN snippet, pointed at it, runs in a page of another origin in
 * Chromium. The snippet's search requests (to the hosted API's hosts) are
 * answered by the docs site's local search API.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { dirname, extname, fromFileUrl, join, relative } from "@std/path";
import type { Browser } from "playwright-core";
import { launchBrowser } from "../support/browser.ts";
import { runDeno, startDocsSite } from "../support/docs_site.ts";

const ROOT = fromFileUrl(new URL("../..", import.meta.url));
const CDN_PREFIX = "https://esm.sh/jsr/";
/** Content types of the files a browser loads from the CDN. */
const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

/** The files `deno publish --dry-run` would publish, relative to the repository. */
async function publishedFiles(): Promise<string[]> {
  const { success, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["publish", "--dry-run", "--allow-dirty"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const output = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
  assert(success, output);
  // deno-lint-ignore no-control-regex
  const plain = output.replace(/\x1b\[[0-9;]*m/g, "");
  return [...plain.matchAll(/^\s+(file:\/\/\S+) \(/gm)].map((m) =>
    relative(ROOT, fromFileUrl(m[1]))
  );
}

/** docs/search-box.md's CDN snippet (the html block after `<!-- cdn-snippet -->`). */
async function readmeSnippet(): Promise<string> {
  const page = await Deno.readTextFile(join(ROOT, "docs/search-box.md"));
  const match = page.match(/<!-- cdn-snippet -->\s*```html\n([\s\S]*?)```/);
  assert(match, "docs/search-box.md has the CDN snippet");
  return match[1];
}

Deno.test({
  name: "search box from a CDN: the published files, the docs' snippet, another origin",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await runDeno(["task", "bundle"]);
    const files = await publishedFiles();
    for (const file of ["dist/searchbox.js", "dist/style.css", "widget/mod.ts"]) {
      assert(files.includes(file), `${file} is published: ${files.join(", ")}`);
    }
    assert(!files.some((f) => f.startsWith("tests/")), "tests are not published");

    // the CDN: the published files only, under /<package>@<version>/, with CORS
    const { name, version } = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
    const cdnRoot = await Deno.makeTempDir({ prefix: "searchbox-cdn-" });
    for (const file of files) {
      await Deno.mkdir(join(cdnRoot, dirname(file)), { recursive: true });
      await Deno.copyFile(join(ROOT, file), join(cdnRoot, file));
    }
    const served: string[] = [];
    const cdn = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
      const path = decodeURIComponent(new URL(request.url).pathname);
      served.push(path);
      const prefix = `/${name}@${version}/`;
      if (!path.startsWith(prefix) || path.includes("..")) {
        return new Response(null, { status: 404 });
      }
      try {
        const body = await Deno.readFile(join(cdnRoot, path.slice(prefix.length)));
        return new Response(body, {
          headers: {
            "content-type": TYPES[extname(path)] ?? "application/octet-stream",
            "access-control-allow-origin": "*",
          },
        });
      } catch {
        return new Response(null, { status: 404 });
      }
    });
    const cdnUrl = `http://127.0.0.1:${cdn.addr.port}/`;

    // the site: another origin, a page holding the docs' snippet pointed at the CDN
    const snippet = await readmeSnippet();
    assertMatch(snippet, new RegExp(`${CDN_PREFIX}${name}@${version}/dist/searchbox\\.js`));
    const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>CDN</title>
</head><body><main><h1>A site</h1>${snippet.replaceAll(CDN_PREFIX, cdnUrl)}</main></body></html>`;
    const siteServer = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      () => new Response(page, { headers: { "content-type": "text/html; charset=utf-8" } }),
    );
    const api = await startDocsSite();
    let browser: Browser | undefined;
    try {
      browser = await launchBrowser();
      const tab = await browser.newPage();
      const failed: string[] = [];
      tab.on("requestfailed", (r) => failed.push(r.url()));
      // the snippet's client asks the hosted API's hosts: the local search API answers,
      // with the snippet's index "docs" standing for the docs site's index
      const asked: string[] = [];
      await tab.route(/\/1\/indexes\/(\*|%2A)\/queries/, async (route) => {
        const url = new URL(route.request().url());
        asked.push(url.host);
        const response = await route.fetch({
          url: `${api.url}${url.pathname}${url.search}`,
          postData: (route.request().postData() ?? "").replaceAll(
            '"indexName":"docs"',
            '"indexName":"mikrogql-docs"',
          ),
        });
        await route.fulfill({ response });
      });
      await tab.goto(`http://127.0.0.1:${siteServer.addr.port}/`);
      await tab.waitForSelector(".DocSearch-Button");
      assertEquals(
        await tab.$eval(".DocSearch-Button", (e) => getComputedStyle(e).cursor),
        "pointer",
        "the stylesheet from the CDN applies",
      );
      await tab.click(".DocSearch-Button");
      await tab.fill(".DocSearch-Input", "pagination");
      await tab.waitForSelector(
        ".DocSearch-Hit mark, .DocSearch-NoResults, .DocSearch-ErrorScreen",
      );
      assert(await tab.isVisible(".DocSearch-Hit mark"), "hits for the query");
      assertEquals(asked[0], "app_id-dsn.algolia.net", "the hosted API's host for appId APP_ID");
      assertEquals(failed, []);
      assert(served.includes(`/${name}@${version}/dist/searchbox.js`));
      assert(served.includes(`/${name}@${version}/dist/style.css`));
      assert(
        served.some((p) => /\/dist\/search_modal-[\w-]+\.js$/.test(p)),
        `the modal's chunk came from the CDN: ${served.join(", ")}`,
      );
    } finally {
      await browser?.close();
      await api.close();
      await siteServer.shutdown();
      await cdn.shutdown();
      await Deno.remove(cdnRoot, { recursive: true });
    }
  },
});
