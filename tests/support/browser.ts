/// <reference lib="dom" />
/**
 * Chromium for the search box tests: the system's `/usr/bin/chromium` driven
 * by playwright-core (no browser download), and axe-core injected into pages.
 *
 * @module
 */
import axe from "axe-core";
import { type Browser, chromium, type Page } from "playwright-core";
import type { DocsSite } from "../../examples/docs-site/server.ts";

/** Where CI installs Chromium (`apt-get install chromium`). */
export const CHROMIUM = "/usr/bin/chromium";

/** Launches headless Chromium with a fresh profile. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // classic scrollbars, so the scroll lock's compensation is measurable
    ignoreDefaultArgs: ["--hide-scrollbars"],
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** One axe-core violation, as reported. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

/** Runs axe-core (WCAG 2.x A/AA rules and best practices) on the page; returns the violations. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!await page.evaluate(() => "axe" in globalThis)) {
    await page.addScriptTag({ content: (axe as unknown as { source: string }).source });
  }
  return await page.evaluate(async () => {
    // deno-lint-ignore no-explicit-any
    const result = await (globalThis as any).axe.run(document);
    // deno-lint-ignore no-explicit-any
    return result.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      // deno-lint-ignore no-explicit-any
      nodes: v.nodes.map((n: any) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
}

/**
 * Registers one Deno test that launches Chromium, runs `steps` with it, and then closes the
 * browser and `site`, whatever the steps did.
 */
export function browserTest(
  name: string,
  site: DocsSite,
  steps: (t: Deno.TestContext, browser: Browser) => Promise<void>,
): void {
  Deno.test({
    name,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn(t) {
      const browser = await launchBrowser();
      try {
        await steps(t, browser);
      } finally {
        await browser.close();
        await site.close();
      }
    },
  });
}

/**
 * Clears what a reused page's last user left on the origin the page is on: local and session
 * storage, and with `clipboard` (its context granted clipboard permissions) the clipboard. The
 * browser tests reuse pages because a new one costs a renderer process (about 0.6 s of CPU on the
 * CI machine); the caller loads the page again afterwards.
 */
export async function clearPageStorage(
  page: Page,
  { clipboard = false }: { clipboard?: boolean } = {},
): Promise<void> {
  await page.evaluate(async (clipboard) => {
    localStorage.clear();
    sessionStorage.clear();
    if (clipboard) await navigator.clipboard.writeText("");
  }, clipboard);
}

/**
 * Waits until the page has rendered two more animation frames: every handler of an event
 * already dispatched has run and its rendering has been painted. Used to check that something
 * did NOT happen after an action, without a fixed sleep.
 */
export function nextFrames(page: Page): Promise<void> {
  return page.evaluate(() =>
    new Promise<void>((resolve) =>
      requestAnimationFrame(() => requestAnimationFrame(() => resolve()))
    )
  );
}

/**
 * Polls `condition` every 10 ms until it holds.
 *
 * @throws Error with `message` when it does not hold within `timeoutMs` (default 5,000 ms)
 */
export async function poll(
  condition: () => boolean,
  message: string,
  timeoutMs = 5000,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms: ${message}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
