/**
 * The docs site for the search box tests: the bundle as `deno task bundle` builds it
 * (`scripts/bundle.ts`, kept by `build_cache.ts`), the site and its search API served on a free
 * port of 127.0.0.1.
 *
 * @module
 */
import { fromFileUrl } from "@std/path";
import type { Browser, Page } from "playwright-core";
import { type DocsSite, serveDocsSite } from "../../examples/docs-site/server.ts";
import { bundle } from "../../scripts/bundle.ts";
import { cachedBuild } from "./build_cache.ts";
import type { DocSearchRecord } from "../../examples/docs-site/records.ts";
import type { SearchApiFaults } from "../../examples/docs-site/search_api.ts";
import type { AskAiFaults, AskAiRequestLog } from "../../examples/docs-site/ask_ai_api.ts";

const ROOT = fromFileUrl(new URL("../..", import.meta.url));

/** Runs `deno <args>` in the repository; throws with its output when it fails. */
export async function runDeno(args: string[]): Promise<void> {
  const { success, stderr } = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!success) {
    throw new Error(`deno ${args.join(" ")} failed:\n${new TextDecoder().decode(stderr)}`);
  }
}

/**
 * Bundles a test page's script `entry` (a path in the repository, e.g. a
 * fixture that mounts the component) for the browser into the file `out`.
 */
export function bundlePage(entry: string, out: string): Promise<void> {
  return runDeno(["bundle", "--quiet", "--platform", "browser", "-o", out, entry]);
}

let shared: Promise<string> | null = null;

/**
 * The search box's bundle as `deno task bundle` builds it (`scripts/bundle.ts`), built once for
 * the test files of a run and kept while its sources are unchanged ({@link cachedBuild}).
 */
export function sharedBundle(): Promise<string> {
  return shared ??= cachedBuild(
    "searchbox-dist",
    ["widget", "scripts/bundle.ts", "deno.json"],
    bundle,
  );
}

/**
 * A docs site over `distDir`, by default the process's shared bundle
 * ({@link sharedBundle}: a test may add files to it, never change or remove
 * it); `faults` stays mutable while it runs.
 */
export async function startDocsSite(
  options: {
    /** What the site serves: `"project"`, the repository's documentation; default the fixture. */
    content?: "project" | "fixture";
    faults?: SearchApiFaults;
    extraRecords?: DocSearchRecord[];
    distDir?: string;
    askAiFaults?: AskAiFaults;
    askAiLog?: AskAiRequestLog[];
  } = {},
): Promise<DocsSite & { distDir: string }> {
  const distDir = options.distDir ?? await sharedBundle();
  const site = await serveDocsSite({ ...options, distDir });
  return { ...site, distDir };
}

/** How {@link openSearchPage} sets up the page. */
export interface SearchPageOptions {
  /** Extra options of `searchBox()`, as JavaScript source (`key: value, ...`). */
  extra?: string;
  /** Path of the page; default `/`. */
  path?: string;
  viewport?: { width: number; height: number };
  colorScheme?: "light" | "dark";
}

/**
 * A page of `site` in a fresh browser context (own storage) with the search
 * box mounted by the page's own bootstrap options plus `extra` (Ask AI off
 * unless `extra` sets `askAi`); the page has the instance as `window.__box`
 * and its `destroy` as `window.__destroy`.
 */
export async function openSearchPage(
  browser: Browser,
  site: { url: string },
  options: SearchPageOptions = {},
): Promise<Page> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 800 },
    colorScheme: options.colorScheme ?? "light",
  });
  const page = await context.newPage();
  const path = options.path ?? "/";
  await page.goto(`${site.url}${path}${path.includes("?") ? "&" : "?"}manual`);
  await page.waitForFunction(() => "searchBox" in globalThis);
  await page.evaluate(
    `window.__box = searchBox({ ...docsSearchOptions, askAi: undefined, ${
      options.extra ?? ""
    } }); window.__destroy = __box.destroy`,
  );
  return page;
}
