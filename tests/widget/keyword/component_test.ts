/// <reference lib="dom" />
/**
 * The `SearchBox` Preact component: props, the modal in `portalContainer` or `document.body`. In
 * a real Chromium against the docs site and its local search API.
 */
import { assert, assertEquals } from "@std/assert";
import { bundlePage } from "../../support/docs_site.ts";
import { closePage, HIT, keywordTest } from "./search_page.ts";

await keywordTest("search box: the SearchBox component", async (t, { site, mount }) => {
  await t.step(
    "SearchBox component: props, modal in portalContainer or document.body",
    async () => {
      await bundlePage(
        "tests/widget/fixtures/component_page.ts",
        `${site.distDir}/component_page.js`,
      );
      const page = await mount();
      await page.evaluate(() => {
        document.querySelector("main")!.insertAdjacentHTML(
          "beforeend",
          '<div id="app"></div><div id="portal"></div>',
        );
      });
      await page.evaluate("window.__destroy()");
      await page.addScriptTag({ type: "module", url: "/dist/component_page.js" });
      await page.waitForFunction(() => "mountSearchBox" in globalThis);
      await page.evaluate(
        `mountSearchBox({ portalContainer: document.querySelector("#portal"), translations: { button: { buttonText: "Find" } } })`,
      );
      assertEquals(await page.textContent("#app .DocSearch-Button-Placeholder"), "Find");
      await page.click("#app .DocSearch-Button");
      await page.fill("#portal .DocSearch-Input", "theming");
      await page.waitForSelector(`#portal ${HIT}`);
      assertEquals(await page.locator("#app .DocSearch-Modal").count(), 0);
      await page.keyboard.press("Escape");
      assertEquals(await page.locator("#portal .DocSearch-Modal").count(), 0);

      await page.evaluate(`mountSearchBox({ portalContainer: undefined })`);
      await page.keyboard.press("Control+k");
      assert(
        await page.evaluate(() =>
          document.querySelector(".DocSearch-Modal")!.closest("body > div") !== null
        ),
      );
      assertEquals(
        await page.locator("#portal .DocSearch-Modal, #app .DocSearch-Modal").count(),
        0,
      );
      await closePage(page);
    },
  );
});
