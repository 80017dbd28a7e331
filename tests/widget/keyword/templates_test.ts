/// <reference lib="dom" />
/**
 * The templates: `hitComponent` in each style and `resultsFooterComponent`. In a real Chromium
 * against the docs site and its local search API.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { closePage, HIT, keywordTest, search } from "./search_page.ts";

await keywordTest("search box: templates", async (t, { mount }) => {
  await t.step("hitComponent: html helper, string and component styles", async () => {
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
  });

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
});
