/**
 * The React package of the search box (`widget/react/mod.ts`), built for
 * React sites into `dist/react/` (or the first argument): `deno bundle`
 * (minified ESM, code splitting: `searchbox-react.js`, the modal's and Ask
 * AI's chunks; then, in a run of its own, the `./sidepanel` entry
 * `sidepanel.js` from `widget/react/sidepanel.ts`, as DocSearch's
 * `@docsearch/react/sidepanel`, with its panel's chunk) with an import map that is `deno.json`'s with `preact` and
 * `preact/hooks` mapped to the React stand-ins (`widget/react/
 * preact_on_react.ts`, `hooks_on_react.ts`), so the search box's components
 * render through the page's React; `react` and `react-dom` stay imports
 * (`--external`), the page's own copy. The template whitespace is dropped
 * and `style.css` gets the `theme: "auto"` rule as in the script package
 * (`scripts/bundle.ts`); `widget/react/searchbox-react.d.ts` and
 * `sidepanel.d.ts` are copied as the types; `package.json` makes the directory the npm package
 * `@mikrogql/searchbox-react`, with React 18 or 19 as peer dependencies, so
 * a site has one React.
 *
 * Run: `deno run -A scripts/bundle_react.ts [outdir]`
 *
 * @module
 */
import { fromFileUrl, join, toFileUrl } from "@std/path";
import { ATTRIBUTE_NEWLINE, TEXT_EDGE_NEWLINE, withAutoDark } from "./bundle.ts";

const ROOT = fromFileUrl(new URL("..", import.meta.url));

/** The published name of the entry's output (`deno bundle` names it `mod.js`, after its source). */
export const REACT_ENTRY = "searchbox-react.js";

/** The package's declarations, written by hand (`deno bundle` emits none). */
const TYPES = "searchbox-react.d.ts";

/** The Sidepanel's entry (`./sidepanel`). */
export const SIDE_PANEL_ENTRY = "sidepanel.js";
/** Its declarations. */
const SIDE_PANEL_TYPES = "sidepanel.d.ts";

/** The packages the React build leaves to the page. */
const EXTERNAL = ["react", "react-dom", "react-dom/client"];

/**
 * `deno.json`'s import map with `preact`, `preact/hooks` and
 * `widget/ui/platform.ts` pointing at the React stand-ins.
 */
async function importMap(): Promise<{ imports: Record<string, string> }> {
  const config = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  const imports: Record<string, string> = {};
  for (const [name, target] of Object.entries(config.imports as Record<string, string>)) {
    imports[name] = target.startsWith("./") ? toFileUrl(join(ROOT, target)).href : target;
  }
  imports["preact"] = toFileUrl(join(ROOT, "widget/react/preact_on_react.ts")).href;
  imports["preact/hooks"] = toFileUrl(join(ROOT, "widget/react/hooks_on_react.ts")).href;
  // the platform, read so that a server render and the hydrating render agree
  imports[toFileUrl(join(ROOT, "widget/ui/platform.ts")).href] =
    toFileUrl(join(ROOT, "widget/react/platform_on_react.ts")).href;
  return { imports };
}

/** Builds the React package into `outDir` (emptied first); throws with `deno bundle`'s output when it fails. */
export async function bundleReact(outDir: string): Promise<void> {
  await Deno.remove(outDir, { recursive: true }).catch(() => {});
  await Deno.mkdir(outDir, { recursive: true });
  const mapFile = await Deno.makeTempFile({ suffix: ".json" });
  const run = async (dir: string, entry: string) => {
    const { success, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--quiet",
        "--minify",
        "--platform",
        "browser",
        "--code-splitting",
        "--import-map",
        mapFile,
        ...EXTERNAL.flatMap((name) => ["--external", name]),
        "--outdir",
        dir,
        entry,
      ],
      cwd: ROOT,
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!success) throw new Error(`deno bundle failed:\n${new TextDecoder().decode(stderr)}`);
  };
  try {
    await Deno.writeTextFile(mapFile, JSON.stringify(await importMap()));
    await run(outDir, "widget/react/mod.ts");
    // the Sidepanel's entry in a run of its own, as in the script package: the search box's
    // files do not change for it
    const sidePanelDir = join(outDir, ".sidepanel");
    await run(sidePanelDir, "widget/react/sidepanel.ts");
    for await (const entry of Deno.readDir(sidePanelDir)) {
      const target = join(outDir, entry.name);
      if (await Deno.stat(target).then(() => true, () => false)) {
        throw new Error(`sidepanel bundle: ${entry.name} is also a file of the search box's`);
      }
      await Deno.rename(join(sidePanelDir, entry.name), target);
    }
    await Deno.remove(sidePanelDir);
  } finally {
    await Deno.remove(mapFile);
  }
  await Deno.rename(join(outDir, "mod.js"), join(outDir, REACT_ENTRY));
  // the stylesheet on its own: with the entry, the common parent would move the entry to `react/`
  const css = join(outDir, "style.css");
  const styled = await new Deno.Command(Deno.execPath(), {
    args: ["bundle", "--quiet", "--minify", "-o", css, "widget/style.css"],
    cwd: ROOT,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!styled.success) {
    throw new Error(`deno bundle style.css failed:\n${new TextDecoder().decode(styled.stderr)}`);
  }
  await Deno.writeTextFile(css, withAutoDark(await Deno.readTextFile(css)));
  await Deno.copyFile(join(ROOT, "widget/react", TYPES), join(outDir, TYPES));
  await Deno.copyFile(
    join(ROOT, "widget/react", SIDE_PANEL_TYPES),
    join(outDir, SIDE_PANEL_TYPES),
  );
  await Deno.writeTextFile(join(outDir, "package.json"), await packageJson());
  for await (const entry of Deno.readDir(outDir)) {
    if (!entry.name.endsWith(".js")) continue;
    const path = join(outDir, entry.name);
    const code = await Deno.readTextFile(path);
    if (code.includes('"./mod.js"')) {
      throw new Error(
        `${entry.name} imports the entry by its source name, renamed to ${REACT_ENTRY}`,
      );
    }
    if (/from\s*"preact/.test(code) || code.includes("__preactattr_")) {
      throw new Error(`${entry.name} still holds Preact: the import map did not apply`);
    }
    await Deno.writeTextFile(
      path,
      code.replace(/\n[ \t]+/g, "\n").replace(TEXT_EDGE_NEWLINE, "").replace(
        ATTRIBUTE_NEWLINE,
        " ",
      ),
    );
  }
}

/**
 * The npm package's manifest: React and React DOM 18 or 19 as peer
 * dependencies (the site's own copy: two Reacts would break hooks), the
 * entry and the stylesheet as its exports, the version of `deno.json`.
 */
async function packageJson(): Promise<string> {
  const config = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  const react = "^18.0.0 || ^19.0.0";
  return JSON.stringify(
    {
      name: "@mikrogql/searchbox-react",
      version: config.version,
      license: config.license,
      description: "The mikrogql documentation search box as a React component (DocSearch v4 API)",
      type: "module",
      sideEffects: ["*.css"],
      exports: {
        ".": { types: `./${TYPES}`, default: `./${REACT_ENTRY}` },
        "./sidepanel": { types: `./${SIDE_PANEL_TYPES}`, default: `./${SIDE_PANEL_ENTRY}` },
        "./style.css": "./style.css",
      },
      types: `./${TYPES}`,
      peerDependencies: { react, "react-dom": react },
    },
    null,
    2,
  ) + "\n";
}

if (import.meta.main) {
  await bundleReact(Deno.args[0] ?? join(ROOT, "dist", "react"));
}
