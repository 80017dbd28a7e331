/// <reference lib="dom" />
/**
 * The React package (`widget/react/`, built by `scripts/bundle_react.ts`) on
 * a real React page, with React 18 and with React 19 from npm: the built
 * package and `tests/widget/fixtures/react_page.ts` bundled for the browser
 * with that React (development build, so React's warnings show), against
 * the docs site's local search API, in Chromium. Per React version: open by
 * the button and by Ctrl+K, grouped results, keyboard navigation, Escape
 * with the focus back on the button, templates (a React element; a string is
 * text), `onOpen`/`onClose`, a re-render with equal props, Ask AI (question,
 * streamed answer, follow-up, back), `portalContainer`, `React.StrictMode`
 * (one button, one keydown listener), a server render (no `window`) that
 * the page hydrates without a mismatch, unmount (no listener, no markup, no
 * scroll lock left), and no React warning or page error on the way.
 */
import { assert, assertEquals } from "@std/assert";
import { fromFileUrl, join, toFileUrl } from "@std/path";
import type { Browser, Page } from "playwright-core";
import { browserTest, nextFrames } from "../../support/browser.ts";
import { runDeno, startDocsSite } from "../../support/docs_site.ts";
import { bundleReact, REACT_ENTRY, SIDE_PANEL_ENTRY } from "../../../scripts/bundle_react.ts";

const ROOT = fromFileUrl(new URL("../../..", import.meta.url));
/** The React versions the package supports, pinned. */
const REACT_VERSIONS = ["18.3.1", "19.2.0"];
const HIT = ".DocSearch-Hit:not(.DocSearch-Hit-source)";
const MODAL = ".DocSearch-Modal";

/**
 * Bundles the test page for React `version` into `out`: `deno.json`'s
 * imports (as the only import map) with React and React DOM at `version`, and the built package
 * (`packageDir`) in place of the source module `widget/react/mod.ts`.
 */
async function bundleReactPage(version: string, packageDir: string, out: string): Promise<void> {
  const config = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  const imports: Record<string, string> = { ...config.imports };
  imports["react"] = `npm:react@${version}`;
  imports["react-dom"] = `npm:react-dom@${version}`;
  imports["react-dom/client"] = `npm:react-dom@${version}/client`;
  imports[toFileUrl(join(ROOT, "widget/react/mod.ts")).href] =
    toFileUrl(join(packageDir, REACT_ENTRY)).href;
  imports[toFileUrl(join(ROOT, "widget/react/sidepanel.ts")).href] =
    toFileUrl(join(packageDir, SIDE_PANEL_ENTRY)).href;
  const map = await Deno.makeTempFile({ suffix: ".json" });
  try {
    await Deno.writeTextFile(map, JSON.stringify({ imports }));
    // no config nor lock: their React 19 would be the peer of React DOM 18
    await runDeno([
      "bundle",
      "--quiet",
      "--no-config",
      "--no-lock",
      "--platform",
      "browser",
      "--import-map",
      map,
      "-o",
      out,
      "tests/widget/fixtures/react_page.ts",
    ]);
  } finally {
    await Deno.remove(map);
  }
}

/**
 * The markup of `SearchBox` rendered on a server with React `version`
 * (`tests/widget/fixtures/react_ssr.ts` run without `window`, the built
 * package from `packageDir`); throws when it writes to stderr (React's
 * server warnings among them).
 */
async function serverRender(
  version: string,
  packageDir: string,
  component: "searchbox" | "sidepanel" = "searchbox",
): Promise<string> {
  const imports = {
    "react": `npm:react@${version}`,
    "react-dom": `npm:react-dom@${version}`,
    "react-dom/server": `npm:react-dom@${version}/server`,
    [toFileUrl(join(ROOT, "widget/react/mod.ts")).href]: toFileUrl(join(packageDir, REACT_ENTRY))
      .href,
    [toFileUrl(join(ROOT, "widget/react/sidepanel.ts")).href]: toFileUrl(
      join(packageDir, SIDE_PANEL_ENTRY),
    ).href,
  };
  const map = await Deno.makeTempFile({ suffix: ".json" });
  try {
    await Deno.writeTextFile(map, JSON.stringify({ imports }));
    const { success, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-config",
        "--no-lock",
        "--import-map",
        map,
        "--allow-read",
        "--allow-env",
        "tests/widget/fixtures/react_ssr.ts",
        component,
      ],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(60_000),
    }).output();
    const errors = new TextDecoder().decode(stderr);
    assert(success && errors === "", `server render with React ${version}:\n${errors}`);
    return new TextDecoder().decode(stdout).trim();
  } finally {
    await Deno.remove(map);
  }
}

/** Counts the keydown listeners on `window` (added and not removed), as `__keydownListeners()`. */
const COUNT_LISTENERS = `(() => {
  const live = new Set();
  const add = window.addEventListener, remove = window.removeEventListener;
  window.addEventListener = function (type, listener, options) {
    if (this === window && type === "keydown") live.add(listener), adds++;
    return add.call(this, type, listener, options);
  };
  window.removeEventListener = function (type, listener, options) {
    if (this === window && type === "keydown") live.delete(listener);
    return remove.call(this, type, listener, options);
  };
  let adds = 0;
  window.__keydownListeners = () => live.size;
  window.__keydownAdds = () => adds;
})();`;

interface ReactPage {
  page: Page;
  /** Console errors and warnings (React's dev warnings among them) and page errors. */
  problems: string[];
  /** Keydown listeners on `window` before the search box mounted. */
  baseline: number;
}

async function openReactPage(
  browser: Browser,
  url: string,
  script: string,
  platform?: string,
): Promise<ReactPage> {
  const context = await browser.newContext();
  const page = await context.newPage();
  if (platform) {
    await page.addInitScript(
      `Object.defineProperty(navigator, "platform", { get: () => ${JSON.stringify(platform)} })`,
    );
  }
  const problems: string[] = [];
  page.on("console", (message) => {
    if (
      (message.type() === "error" || message.type() === "warning") &&
      !message.text().startsWith("Failed to load resource")
    ) problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(String(error)));
  await page.addInitScript(COUNT_LISTENERS);
  await page.goto(`${url}/?manual`);
  await page.evaluate(() => {
    document.querySelector("main")!.insertAdjacentHTML(
      "beforeend",
      '<div id="app"></div><div id="side"></div><div id="portal"><p id="keep">kept</p></div>',
    );
  });
  await page.addScriptTag({ type: "module", url: `/dist/${script}` });
  await page.waitForFunction(() => "mountReact" in globalThis);
  const baseline = await page.evaluate("__keydownListeners()") as number;
  return { page, problems, baseline };
}

const listeners = (page: Page) => page.evaluate("__keydownListeners()") as Promise<number>;
const focusedIsButton = (page: Page) =>
  page.evaluate(() => document.activeElement?.matches("#app .DocSearch-Button") ?? false);

const packageDir = await Deno.makeTempDir({ prefix: "searchbox-react-" });
globalThis.addEventListener("unload", () => Deno.removeSync(packageDir, { recursive: true }));
await bundleReact(packageDir);
const site = await startDocsSite();
for (const version of REACT_VERSIONS) {
  await bundleReactPage(version, packageDir, join(site.distDir, `react-page-${version}.js`));
}

browserTest(
  "search box: the React component, React 18 and 19, in Chromium",
  site,
  async (t, browser) => {
    for (const version of REACT_VERSIONS) {
      const script = `react-page-${version}.js`;

      await t.step(
        `React ${version}: button, search, grouped results, arrows, Enter, Escape, Ctrl+K`,
        async () => {
          const { page, problems, baseline } = await openReactPage(browser, site.url, script);
          assertEquals(await page.evaluate("reactVersion"), version);
          await page.evaluate(
            `mountReact({ navigator: { navigate: ({ itemUrl }) => { window.__navigated = itemUrl; } } })`,
          );
          await page.waitForSelector("#app .DocSearch-Button");
          assertEquals(await listeners(page), baseline + 1);

          await page.click("#app .DocSearch-Button");
          await page.waitForSelector(`body > ${".DocSearch-Container"} ${MODAL}`);
          await page.waitForFunction(() => document.activeElement?.matches(".DocSearch-Input"));
          await page.keyboard.type("theming");
          await page.waitForSelector(HIT);
          // grouped: each section has its title and rows, rows numbered across sections
          const groups = await page.$$eval(".DocSearch-Hits", (sections) =>
            sections.map((s) => ({
              title: s.querySelector(".DocSearch-Hit-source")?.textContent ?? "",
              rows: s.querySelectorAll(".DocSearch-Hit:not(.DocSearch-Hit-source)").length,
            })));
          assert(
            groups.length >= 1 && groups.every((g) => g.title !== "" && g.rows > 0),
            JSON.stringify(groups),
          );
          const rows = await page.locator(HIT).count();
          assert(rows >= 2, `only ${rows} rows for "theming"`);
          assertEquals(await page.getAttribute(`${HIT} >> nth=0`, "aria-selected"), "true");

          await page.keyboard.press("ArrowDown");
          await page.waitForSelector(`${HIT}:nth-match(${HIT}, 2)[aria-selected="true"]`).catch(
            () => {},
          );
          const selected = await page.$$eval(
            HIT,
            (hits) => hits.findIndex((h) => h.getAttribute("aria-selected") === "true"),
          );
          assertEquals(selected, 1);
          const activeId = await page.getAttribute(".DocSearch-Input", "aria-activedescendant");
          const cellId = await page.$$eval(
            HIT,
            (hits) => hits[1].querySelector("[role=gridcell]")!.id,
          );
          assertEquals(activeId, cellId);
          await page.keyboard.press("ArrowUp");
          await page.keyboard.press("ArrowUp");
          // React applies the key presses' state after the events: wait for the last row's mark.
          await page.waitForSelector(`${HIT}:nth-match(${HIT}, ${rows})[aria-selected="true"]`)
            .catch(() => {});
          assertEquals(
            await page.$$eval(
              HIT,
              (hits) => hits.findIndex((h) => h.getAttribute("aria-selected") === "true"),
            ),
            rows - 1,
            "ArrowUp from the first row wraps to the last",
          );
          await page.keyboard.press("ArrowDown");
          await page.keyboard.press("ArrowDown");
          const href = await page.$$eval(
            HIT,
            (hits) => hits[1].querySelector("a")!.getAttribute("href"),
          );
          await page.keyboard.press("Enter");
          await page.waitForFunction(() => "__navigated" in globalThis);
          assertEquals(await page.evaluate("window.__navigated"), href);
          await page.waitForSelector(MODAL, { state: "detached" });
          assert(await focusedIsButton(page), "focus back on the button after Enter");

          await page.keyboard.press("Control+k");
          await page.waitForSelector(MODAL);
          await page.waitForFunction(() => document.activeElement?.matches(".DocSearch-Input"));
          assert(await page.evaluate(() => document.body.classList.contains("DocSearch--active")));
          await page.keyboard.press("Escape");
          await page.waitForSelector(MODAL, { state: "detached" });
          assert(await focusedIsButton(page), "focus back on the button after Escape");
          assert(!await page.evaluate(() => document.body.classList.contains("DocSearch--active")));
          // `/` opens, and typed in the input it is text, not a shortcut
          await page.keyboard.press("/");
          await page.waitForSelector(MODAL);
          await page.waitForFunction(() => document.activeElement?.matches(".DocSearch-Input"));
          await page.keyboard.press("/");
          await nextFrames(page);
          assertEquals(await page.inputValue(".DocSearch-Input"), "/");
          await page.keyboard.press("Escape");
          await page.waitForSelector(MODAL, { state: "detached" });
          assertEquals(problems, []);
          await page.context().close();
        },
      );

      await t.step(
        `React ${version}: templates as React elements, a string as text, onOpen/onClose, equal props`,
        async () => {
          const { page, problems, baseline } = await openReactPage(browser, site.url, script);
          await page.evaluate(`window.__props = {
            hitComponent: ({ hit, children }) =>
              createElement("a", { href: hit.url, className: "react-hit" }, children),
            resultsFooterComponent: ({ state }) => "<b>" + state.context.nbHits + " hits</b>",
            onOpen: () => window.__opened = (window.__opened ?? 0) + 1,
            onClose: () => window.__closed = (window.__closed ?? 0) + 1,
          }; mountReact(window.__props)`);
          await page.waitForSelector("#app .DocSearch-Button");
          const adds = await page.evaluate("__keydownAdds()");
          // a re-render with equal props keeps the options, so the listener is not installed again
          await page.evaluate("mountReact(window.__props)");
          await nextFrames(page);
          assertEquals(await page.evaluate("__keydownAdds()"), adds);
          assertEquals(await listeners(page), baseline + 1);
          await page.click("#app .DocSearch-Button");
          await page.fill(".DocSearch-Input", "theming");
          await page.waitForSelector(HIT);
          assertEquals(await page.evaluate("window.__opened"), 1);
          assertEquals(
            await page.locator(`${HIT} a.react-hit`).count(),
            await page.locator(HIT).count(),
          );
          const footer = await page.waitForSelector(".DocSearch-HitsFooter");
          assert(
            (await footer.textContent())!.match(/^<b>\d+ hits<\/b>$/),
            await footer.innerHTML(),
          );
          assertEquals(await page.locator(".DocSearch-HitsFooter b").count(), 0);
          await page.keyboard.press("Escape");
          await page.waitForSelector(MODAL, { state: "detached" });
          assertEquals(await page.evaluate("window.__closed"), 1);
          assertEquals(problems, []);
          await page.context().close();
        },
      );

      await t.step(
        `React ${version}: Ask AI: a question, its streamed answer, a follow-up`,
        async () => {
          const { page, problems } = await openReactPage(browser, site.url, script);
          await page.evaluate(
            `mountReact({ askAi: { assistantId: "mikrogql-docs-assistant", baseUrl: location.origin } })`,
          );
          await page.click("#app .DocSearch-Button");
          await page.fill(".DocSearch-Input", "theming");
          await page.waitForSelector(".DocSearch-Hit a");
          const first = page.locator(".DocSearch-Hit").first();
          assertEquals((await first.textContent())?.trim(), "Ask AI: theming");
          await page.keyboard.press("Enter");
          await page.waitForFunction(() =>
            document.querySelector(".DocSearch-Markdown-Content")?.textContent?.includes(
              'Here is what the documentation says about "theming"',
            )
          );
          // answered: the question input is enabled again and takes the next question
          await page.waitForSelector(".DocSearch-Input:not([disabled])");
          await page.keyboard.type("pagination");
          assertEquals(await page.inputValue(".DocSearch-Input"), "pagination");
          await page.keyboard.press("Enter");
          await page.waitForFunction(() =>
            document.querySelectorAll(".DocSearch-Markdown-Content").length === 2 &&
            document.querySelectorAll(".DocSearch-Markdown-Content")[1].textContent!.includes(
              '"pagination"',
            )
          );
          await page.waitForSelector(".DocSearch-Input:not([disabled])");
          await page.keyboard.press("Escape");
          await page.waitForSelector(".DocSearch-Markdown-Content", { state: "detached" });
          assertEquals(await page.inputValue(".DocSearch-Input"), "theming");
          await page.keyboard.press("Escape");
          await page.waitForSelector(MODAL, { state: "detached" });
          assertEquals(problems, []);
          await page.context().close();
        },
      );

      await t.step(`React ${version}: portalContainer`, async () => {
        const { page, problems } = await openReactPage(browser, site.url, script);
        await page.evaluate(
          `mountReact({ portalContainer: document.querySelector("#portal"), translations: { button: { buttonText: "Find" } } })`,
        );
        await page.waitForSelector("#app .DocSearch-Button");
        assertEquals(await page.textContent("#app .DocSearch-Button-Placeholder"), "Find");
        await page.click("#app .DocSearch-Button");
        await page.waitForSelector(`#portal > .DocSearch-Container ${MODAL}`);
        await page.fill("#portal .DocSearch-Input", "theming");
        await page.waitForSelector(`#portal ${HIT}`);
        assertEquals(await page.locator(MODAL).count(), 1);
        await page.keyboard.press("Escape");
        await page.waitForSelector(MODAL, { state: "detached" });
        assertEquals(
          await page.evaluate(() => document.querySelector("#portal")!.innerHTML),
          '<p id="keep">kept</p>',
          "the portal's own children stay, the modal's markup goes",
        );
        assertEquals(problems, []);
        await page.context().close();
      });

      await t.step(`React ${version}: StrictMode mounts one button and one listener`, async () => {
        const { page, problems, baseline } = await openReactPage(browser, site.url, script);
        await page.evaluate(`mountReact({}, true)`);
        await page.waitForSelector("#app .DocSearch-Button");
        await nextFrames(page);
        assertEquals(await page.locator(".DocSearch-Button").count(), 1);
        assertEquals(
          await listeners(page),
          baseline + 1,
          "one keydown listener after the double mount",
        );
        await page.keyboard.press("Control+k");
        await page.waitForSelector(MODAL);
        await nextFrames(page);
        assertEquals(await page.locator(MODAL).count(), 1);
        await page.keyboard.type("theming");
        await page.waitForSelector(HIT);
        // one toggle per press: a second listener would open again what the first closed
        await page.keyboard.press("Control+k");
        await page.waitForSelector(MODAL, { state: "detached" });
        await nextFrames(page);
        assertEquals(await page.locator(MODAL).count(), 0);
        assertEquals(problems, []);
        await page.context().close();
      });

      for (const platform of ["Linux x86_64", "MacIntel"]) {
        await t.step(
          `React ${version}: server render, then hydration in the browser on ${platform}`,
          async () => {
            const markup = await serverRender(version, packageDir);
            assert(
              markup.startsWith('<button type="button" class="DocSearch DocSearch-Button"'),
              markup,
            );
            const { page, problems, baseline } = await openReactPage(
              browser,
              site.url,
              script,
              platform,
            );
            await page.evaluate((html) => document.querySelector("#app")!.innerHTML = html, markup);
            const button = await page.$("#app .DocSearch-Button");
            await page.evaluate("hydrateReact({})");
            await page.waitForFunction(`__keydownListeners() > ${baseline}`);
            assertEquals(await listeners(page), baseline + 1);
            assertEquals(await page.locator(".DocSearch-Button").count(), 1);
            assert(
              await page.evaluate(
                (b) => b === document.querySelector("#app .DocSearch-Button"),
                button,
              ),
              "hydration kept the server's button element",
            );
            // the server knows no platform: an Apple page shows ⌘ once hydrated, without a mismatch
            const apple = platform === "MacIntel";
            await page.waitForSelector(
              `#app .DocSearch-Button[aria-label="Search (${apple ? "Meta" : "Control"}+k)"]`,
            );
            assertEquals(
              await page.getAttribute("#app .DocSearch-Button-Key >> nth=0", "data-key"),
              apple ? "⌘" : "Ctrl",
            );
            await page.click("#app .DocSearch-Button");
            await page.fill(".DocSearch-Input", "theming");
            await page.waitForSelector(HIT);
            await page.keyboard.press("Escape");
            await page.waitForSelector(MODAL, { state: "detached" });
            assert(await focusedIsButton(page));
            assertEquals(problems, [], "no hydration mismatch or other React warning");
            await page.context().close();
          },
        );
      }

      await t.step(
        `React ${version}: SidePanel in StrictMode: one button, one Ctrl+I listener, an answer, hybrid`,
        async () => {
          const { page, problems, baseline } = await openReactPage(browser, site.url, script);
          await page.evaluate(
            `mountSidePanel({ onOpen: () => window.__opened = (window.__opened ?? 0) + 1 }, true)`,
          );
          await page.waitForSelector("#side .DocSearch-SidepanelButton");
          await nextFrames(page);
          assertEquals(await page.locator(".DocSearch-SidepanelButton").count(), 1);
          assertEquals(await listeners(page), baseline + 1, "one keydown listener");
          await page.keyboard.press("Control+i");
          await page.waitForSelector("body > .DocSearch-Sidepanel .DocSearch-Input");
          await page.keyboard.type("install");
          await page.keyboard.press("Enter");
          await page.waitForSelector(".DocSearch-Sidepanel .DocSearch-AskAiScreen-Response");
          await page.waitForSelector(".DocSearch-Sidepanel .DocSearch-Input:not([disabled])", {
            timeout: 20_000,
          });
          // one toggle per press: a second listener would open again what the first closed
          await page.keyboard.press("Control+i");
          await page.waitForSelector(".DocSearch-Sidepanel", { state: "detached" });
          await nextFrames(page);
          assertEquals(await page.locator(".DocSearch-Sidepanel").count(), 0);
          // hybrid: the SearchBox's Ask AI row opens in the panel
          await page.evaluate(
            `mountReact({ askAi: { assistantId: "mikrogql-docs-assistant", baseUrl: location.origin } })`,
          );
          await page.click("#app .DocSearch-Button");
          await page.fill(".DocSearch-Input", "install");
          await page.waitForSelector(`.DocSearch-Hit[aria-selected="true"] .DocSearch-Hit--AskAI`);
          await page.keyboard.press("Enter");
          await page.waitForSelector(MODAL, { state: "detached" });
          await page.waitForSelector(
            `.DocSearch-Sidepanel .DocSearch-AskAiScreen-Query:has-text("install")`,
          );
          await page.evaluate("unmountSidePanel()");
          assertEquals(
            await page.locator(".DocSearch-Sidepanel, .DocSearch-SidepanelButton").count(),
            0,
          );
          assertEquals(
            await listeners(page),
            baseline + 1,
            "only the SearchBox's listener is left",
          );
          assertEquals(problems, []);
          await page.context().close();
        },
      );

      await t.step(`React ${version}: SidePanel server render, then hydration`, async () => {
        const markup = await serverRender(version, packageDir, "sidepanel");
        assert(
          markup.startsWith('<button type="button" class="DocSearch DocSearch-SidepanelButton'),
          markup,
        );
        const { page, problems, baseline } = await openReactPage(browser, site.url, script);
        await page.evaluate((html) => document.querySelector("#side")!.innerHTML = html, markup);
        const button = await page.$("#side .DocSearch-SidepanelButton");
        await page.evaluate(`hydrateSidePanel({ askAi: "mikrogql-docs-assistant" })`);
        await page.waitForFunction(`__keydownListeners() > ${baseline}`);
        assert(
          await page.evaluate(
            (b) => b === document.querySelector("#side .DocSearch-SidepanelButton"),
            button,
          ),
          "hydration kept the server's button element",
        );
        await page.click("#side .DocSearch-SidepanelButton");
        await page.waitForSelector(".DocSearch-Sidepanel .DocSearch-Input");
        await page.keyboard.press("Escape");
        await page.waitForSelector(".DocSearch-Sidepanel", { state: "detached" });
        assertEquals(problems, [], "no hydration mismatch or other React warning");
        await page.context().close();
      });

      await t.step(
        `React ${version}: unmount while open leaves no listener, markup or lock`,
        async () => {
          const { page, problems, baseline } = await openReactPage(browser, site.url, script);
          await page.evaluate(
            `mountReact({ portalContainer: document.querySelector("#portal") }, true)`,
          );
          await page.click("#app .DocSearch-Button");
          await page.fill("#portal .DocSearch-Input", "theming");
          await page.waitForSelector(`#portal ${HIT}`);
          assertEquals(await listeners(page), baseline + 1);
          await page.evaluate("unmountReact()");
          assertEquals(
            await page.locator(".DocSearch, .DocSearch-Container, .DocSearch-Button").count(),
            0,
          );
          assertEquals(
            await page.evaluate(() => document.querySelector("#portal")!.innerHTML),
            '<p id="keep">kept</p>',
          );
          assertEquals(await listeners(page), baseline, "the shortcuts' listener is removed");
          assert(
            !await page.evaluate(() => document.body.classList.contains("DocSearch--active")),
            "scroll lock released",
          );
          await page.keyboard.press("Control+k");
          await page.keyboard.press("/");
          await nextFrames(page);
          assertEquals(
            await page.locator(MODAL).count(),
            0,
            "no shortcut opens anything after unmount",
          );
          assertEquals(problems, []);
          await page.context().close();
        },
      );
    }
  },
);
