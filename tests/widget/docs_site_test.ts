/// <reference lib="dom" />
/**
 * `deno task docs`: the repository's documentation served as a site (`content: "project"` of
 * `examples/docs-site`), in Chromium. The home page is README.md rendered, the navigation lists
 * every docs/ page in README's order, and the README's relative links lead to the site's pages;
 * the theme switch turns the page and the search box dark and is remembered; the search box,
 * over an index built from the pages, finds a term of one page and its hit leads to that page's
 * section (the URL's anchor is the id of the section's heading, whose text is the hit's); the
 * Sidepanel opens by Ctrl+I beside the page and answers from the same docs.
 */
import { assert, assertEquals } from "@std/assert";
import { join } from "@std/path";
import { browserTest } from "../support/browser.ts";
import { startDocsSite } from "../support/docs_site.ts";
import { HIT, INPUT } from "./keyword/search_page.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
const site = await startDocsSite({ content: "project" });

browserTest(
  "docs site: the documentation rendered, navigable, dark, searchable",
  site,
  async (t, browser) => {
    const context = await browser.newContext({ colorScheme: "light" });
    const page = await context.newPage();
    await page.goto(`${site.url}/`);

    await t.step("the README is the home page; the navigation lists every page", async () => {
      assertEquals(await page.locator("main h1").first().textContent(), "mikrogql");
      const nav = await page.locator("nav a").evaluateAll((links) =>
        links.map((a) => (a as HTMLAnchorElement).getAttribute("href"))
      );
      const docs = [];
      for await (const entry of Deno.readDir(join(ROOT, "docs"))) docs.push(entry.name);
      assertEquals(nav.length, docs.length + 2);
      for (const name of docs) assert(nav.includes(`/docs/${name.replace(/\.md$/, ".html")}`));
      assertEquals(nav[0], "/");
      assertEquals(await page.locator('nav a[aria-current="page"]').getAttribute("href"), "/");
      // README's link to a docs page leads to the site's page
      await page.locator('main a[href="/docs/authorization.html"]').first().click();
      await page.waitForURL(`${site.url}/docs/authorization.html`);
      assertEquals(await page.locator("main h1").textContent(), "Authorization");
    });

    await t.step("the theme switch makes the page dark, and the choice stays", async () => {
      const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      const light = await background();
      await page.locator("#theme").click();
      await page.waitForFunction(() => document.documentElement.dataset.theme === "dark");
      assert((await background()) !== light);
      await page.goto(`${site.url}/docs/limits.html`);
      assertEquals(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
      await page.locator("#theme").click();
      await page.waitForFunction(() => document.documentElement.dataset.theme === "light");
    });

    await t.step("a search finds a page's section and its hit leads there", async () => {
      await page.goto(`${site.url}/`);
      await page.locator(".DocSearch-Button").click();
      await page.locator(INPUT).fill("allowedHeaders");
      const hit = page.locator(`${HIT} a[href*="/docs/production.html#"]`).first();
      await hit.waitFor();
      const href = (await hit.getAttribute("href"))!;
      await hit.click();
      await page.waitForURL((url) => url.pathname === "/docs/production.html");
      const anchor = new URL(href, site.url).hash.slice(1);
      assertEquals(new URL(page.url()).hash, `#${anchor}`);
      const heading = await page.locator(`main [id="${anchor}"]`).textContent();
      assertEquals(heading, "The server helper");
      const section = await page.evaluate((id) => {
        // the text from the heading to the next heading of its level or above
        const start = document.getElementById(id)!;
        let text = "";
        for (
          let n = start.nextElementSibling;
          n && !/^H[12]$/.test(n.tagName);
          n = n.nextElementSibling
        ) {
          text += n.textContent;
        }
        return text;
      }, anchor);
      assert(section.includes("allowedHeaders"), section.slice(0, 200));
    });
    await t.step("the Sidepanel answers from the docs beside the page (Ctrl+I)", async () => {
      await page.goto(`${site.url}/docs/limits.html`);
      await page.locator(".DocSearch-SidepanelButton").waitFor();
      await page.keyboard.press("Control+i");
      const panel = page.locator(".DocSearch-Sidepanel");
      await panel.waitFor();
      await panel.locator("input.DocSearch-Input").fill("allowedHeaders");
      await panel.locator("input.DocSearch-Input").press("Enter");
      const answer = panel.locator(".DocSearch-AskAiScreen-Response").first();
      await answer.waitFor();
      await page.waitForFunction(() =>
        document.querySelector(".DocSearch-Sidepanel .DocSearch-AskAiScreen-Response")
          ?.textContent?.includes("production")
      );
      assertEquals(new URL(page.url()).pathname, "/docs/limits.html"); // the page stays
    });
    await context.close();
  },
);
