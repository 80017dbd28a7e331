/**
 * Keystroke-to-results-painted time of the search box in Chromium against
 * the local search API: for 50 keystrokes, the time from the keydown to the
 * first frame after the results of that keystroke's query were handed to the
 * list (`transformItems` marks the moment, a `requestAnimationFrame` plus a
 * task waits for the paint). Prints median, p95, min and max in milliseconds.
 *
 * Run: `deno task bundle && deno run -A bench/keystroke.ts`
 */
/// <reference lib="dom" />
import { fromFileUrl } from "@std/path";
import { launchBrowser } from "../tests/support/browser.ts";
import { startDocsSite } from "../tests/support/docs_site.ts";

const KEYSTROKES = 50;
const WORDS = [
  "keyboard",
  "pagination",
  "translations",
  "container",
  "favorites",
  "generator",
  "theming",
  "cursors",
];

const site = await startDocsSite({ distDir: fromFileUrl(new URL("../dist", import.meta.url)) });
const browser = await launchBrowser();
try {
  const page = await browser.newPage();
  await page.goto(`${site.url}/?manual`);
  await page.waitForFunction(() => "searchBox" in globalThis);
  await page.evaluate(`
    addEventListener("keydown", () => { window.__start = performance.now(); }, true);
    searchBox({ ...docsSearchOptions, transformItems: (items) => {
      const painted = window.__pending;
      window.__pending = null;
      if (painted) requestAnimationFrame(() => setTimeout(() => painted(performance.now())));
      return items;
    } });`);
  await page.click(".DocSearch-Button");
  const samples: number[] = [];
  for (let w = 0; samples.length < KEYSTROKES; w++) {
    await page.fill(".DocSearch-Input", "");
    for (const char of WORDS[w % WORDS.length]) {
      if (samples.length === KEYSTROKES) break;
      await page.evaluate(
        `window.__done = new Promise((r) => { window.__pending = r; }); undefined`,
      );
      await page.keyboard.press(char);
      samples.push(await page.evaluate(`window.__done.then((t) => t - window.__start)`) as number);
    }
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) =>
    samples[Math.min(samples.length - 1, Math.ceil(q * samples.length) - 1)];
  console.log(
    `keystroke -> results painted, ${samples.length} keystrokes (Chromium, local search API):`,
  );
  console.log(
    `median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, min ${
      samples[0].toFixed(1)
    } ms, max ${samples.at(-1)!.toFixed(1)} ms`,
  );
} finally {
  await browser.close();
  await site.close();
}
