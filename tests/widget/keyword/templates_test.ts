/// <reference lib="dom" />
/**
 * The templates: `hitComponent` in each style, `resultsFooterComponent`, and hostile content
 * (index content, the user's query) through every style of both: a plain string is text, markup
 * comes only from the `html` helper or an element. In a real Chromium against the docs site and
 * its local search API.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import { nextFrames } from "../../support/browser.ts";
import { closePage, HIT, keywordTest, search } from "./search_page.ts";

await keywordTest("search box: templates", async (t, { mount }) => {
  await t.step(
    "hitComponent: html helper and component styles; a plain string is text",
    async () => {
      const styles = {
        html:
          `hitComponent: ({ hit, children }, { html }) => html\`<a class="mine" href=\${hit.url}>\${children}</a>\``,
        string:
          `hitComponent: ({ hit }) => '<a class="mine" href="' + hit.url + '">' + hit.type + '</a>'`,
        component:
          `hitComponent: ({ hit }, { html }) => (props) => html\`<a class="mine" href=\${props.hit.url}>\${props.hit.type}</a>\``,
      };
      for (const [style, option] of Object.entries(styles)) {
        const page = await mount(option);
        await search(page, "transactions");
        if (style === "string") {
          assertEquals(await page.locator(`${HIT} a.mine`).count(), 0, style);
          assertMatch(
            await page.textContent(`${HIT} span`) ?? "",
            /^<a class="mine" href="\/docs\/[^"]+">(lvl\d|content)<\/a>$/,
          );
          await closePage(page);
          continue;
        }
        assertEquals(
          await page.locator(`${HIT} a.mine`).count(),
          await page.locator(HIT).count(),
          style,
        );
        const text = await page.textContent(`${HIT} a.mine`);
        if (style === "html") {
          assertEquals(await page.locator(`${HIT} a.mine .DocSearch-Hit-title`).count() > 0, true);
        } else assertMatch(text ?? "", /^(lvl\d|content)$/);
        await closePage(page);
      }
    },
  );

  await t.step("resultsFooterComponent gets the query and nbHits", async () => {
    const page = await mount(
      `resultsFooterComponent: ({ state }, { html }) => html\`<a href="/all">See all \${state.context.nbHits} results for \${state.query}</a>\``,
    );
    await search(page, "keyboard");
    const footer = await page.textContent(".DocSearch-HitsFooter");
    assertMatch(footer ?? "", /^See all \d+ results for keyboard$/);
    const hits = Number(footer!.match(/\d+/)![0]);
    assert(hits >= await page.locator(HIT).count());
    await closePage(page);
  });

  await t.step(
    "hostile content through every template style of both templates never runs",
    async () => {
      // the hit's headings hold <script> and <img onerror> (HOSTILE); so does the query (its words
      // are the heading's, so that the search finds the record)
      const query = `zanzibar <img src=x onerror="window.__pwned='img'">`;
      const hit = {
        string:
          `({ hit }) => '<a href="' + hit.url + '">' + hit.hierarchy.lvl1 + hit.hierarchy.lvl2 + '</a>'`,
        html:
          `({ hit }, { html }) => html\`<a href=\${hit.url}>\${hit.hierarchy.lvl1}\${hit.hierarchy.lvl2}</a>\``,
        component:
          `({ hit }, { html }) => (props) => html\`<a title=\${props.hit.hierarchy.lvl2}>\${props.hit.hierarchy.lvl1}</a>\``,
        element:
          `({ hit }, { html }) => html\`<span data-x=\${hit.hierarchy.lvl2}>\${hit.hierarchy.lvl2}</span>\``,
      };
      const footer = {
        string: `({ state }) => "See all results for " + state.query`,
        html:
          `({ state }, { html }) => html\`<a href="/all">See all results for \${state.query}</a>\``,
        component: `({ state }, { html }) => () => html\`<b>\${state.query}</b>\``,
        element: `({ state }, { html }) => html\`<a title=\${state.query}>\${state.query}</a>\``,
      };
      for (const style of ["string", "html", "component", "element"] as const) {
        const page = await mount(
          `hitComponent: ${hit[style]}, resultsFooterComponent: ${footer[style]}`,
        );
        await search(page, query);
        await page.waitForSelector(".DocSearch-HitsFooter");
        await nextFrames(page); // an injected element would have loaded (and failed) by now
        assertEquals(await page.evaluate("window.__pwned"), undefined, style);
        assertEquals(
          await page.locator(".DocSearch-Modal img, .DocSearch-Modal script").count(),
          0,
          style,
        );
        assertStringIncludes(
          await page.textContent(".DocSearch-HitsFooter") ?? "",
          "<img src=x",
          style,
        );
        if (style !== "component") {
          assertStringIncludes(await page.textContent(HIT) ?? "", "<img src=x onerror=", style);
        }
        await closePage(page);
      }
    },
  );
});
