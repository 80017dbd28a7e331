/**
 * The fixed-path breakdown of `bench/cpu.ts`: a V8 CPU profile of this process (taken with
 * `node:inspector` while requests run in-process) attributed to the phases of a request, as CPU
 * µs per request.
 *
 * A sample belongs to the deepest mikrogql frame on its stack (a plugin's file, field
 * collection, page planning, a resolver, the SQL module, the row mappers, the request context);
 * a sample with none (Yoga's and envelop's own work, graphql-js parsing and validation, the
 * driver's socket callbacks, MikroORM's statement bookkeeping after an `await`) belongs to the
 * library of its leaf frame. Samples under the `Jit` plugin's execute wrapper and no deeper
 * mikrogql frame are execution (graphql-jit's compiled query or graphql-js). The benchmark's
 * own client (building requests, reading responses) is a phase of its own.
 *
 * @module
 */
import { Session } from "node:inspector";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

/** A V8 CPU profile (`Profiler.stop`). */
export interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * Profiles this process while `during` runs (sampling every `intervalUs` µs).
 *
 * @throws Error when the inspector refuses a command
 */
export async function profileInProcess(
  during: () => Promise<void>,
  intervalUs = 100,
): Promise<Profile> {
  const session = new Session();
  session.connect();
  const send = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(
        method,
        params as never,
        (error, result) => error ? reject(error) : resolve(result),
      )
    );
  try {
    await send("Profiler.enable");
    await send("Profiler.setSamplingInterval", { interval: intervalUs });
    await send("Profiler.start");
    await during();
    return (await send("Profiler.stop") as { profile: Profile }).profile;
  } finally {
    session.disconnect();
  }
}

const PLUGINS: Record<string, string> = {
  jit: "Jit",
  body_limit: "plugin BodyLimit",
  csrf: "plugin Csrf",
  limits: "plugin Limits",
  token_limits: "plugin Limits",
  document_shape: "plugin Limits",
  selection_limits: "plugin Limits",
  cost: "plugin Limits",
  argument_limits: "plugin Limits",
  client_errors: "plugin ClientErrors",
  transactioner: "plugin Transactioner",
  read_your_writes: "plugin Transactioner",
  read_retry: "plugin ReadRetry",
  deadline: "plugin Deadline",
  document_cache: "parse/validate cache lookup",
};

/** The phase of a mikrogql frame's file, or `undefined` for a file of no phase. */
function ownPhase(url: string): string | undefined {
  const plugin = url.match(/\/runtime\/plugins\/(\w+)\.ts$/);
  if (plugin) return PLUGINS[plugin[1]] ?? `plugin ${plugin[1]}`;
  const served = url.match(/\/server\/(\w+)\.ts$/);
  if (served) return `serve(): ${served[1]}`;
  // Every `em.fork()` runs through this file's wrapper (it records the fork's parent): the
  // request's EntityManager, forked in the context (createYoga) or on first read (serve()).
  if (url.endsWith("/runtime/read/unfiltered_forks.ts")) return "EntityManager fork (MikroORM)";
  if (url.endsWith("/runtime/read/lean_records.ts")) return "row mapping (lean records)";
  if (/\/runtime\/(read|database)\//.test(url)) return "SQL statements: build and run";
  if (url.endsWith("/runtime/plan/field_collection.ts")) return "plan lookup (field collection)";
  if (/\/runtime\/plan\//.test(url)) return "page planning (cursors, order, where)";
  if (/\/runtime\/request\//.test(url)) return "context building";
  if (/\/runtime\/resolve\/|\/generated\//.test(url)) return "resolvers and connections";
  if (/\/runtime\//.test(url)) return "mikrogql runtime, other";
  return undefined;
}

/**
 * The phase of a sample without a mikrogql frame (or under `Jit` only), by its leaf frame.
 *
 * @param jit whether graphql-jit or the `Jit` plugin is on the stack (a frame without a source
 *   is then graphql-jit's compiled query)
 */
function libraryPhase(url: string, functionName: string, jit: boolean): string {
  const npm = (name: string) => url.includes(`/${name}/`);
  if (npm("graphql-jit") || (url === "" && jit && !functionName.startsWith("op_"))) {
    return "execution (graphql-jit)";
  }
  if (/\/bench\/[\w/]+\.ts$/.test(url)) return "benchmark client (not the server)";
  if (npm("graphql")) {
    if (url.includes("/language/")) return "parse (graphql-js)";
    if (url.includes("/validation/")) return "validate (graphql-js)";
    if (url.includes("/execution/")) return "execution (graphql-js)";
    return "graphql-js, other";
  }
  if (/result-processor|stringify/i.test(url + " " + functionName)) return "serialisation";
  if (["graphql-yoga", "@envelop", "@graphql-yoga", "@whatwg-node", "@graphql-tools"].some(npm)) {
    return "Yoga / envelop (request, hooks)";
  }
  if (npm("lru-cache")) return "parse/validate cache lookup";
  if (npm("@mikro-orm/core")) return "MikroORM core (EntityManager forks, ...)";
  if (npm("@mikro-orm/sql")) return "SQL: MikroORM after a statement (logging, results)";
  if (["kysely", "pg", "pg-protocol", "pg-types", "pg-pool"].some(npm)) {
    return "SQL: driver (kysely, pg)";
  }
  if (/^ext:|^node:/.test(url) || functionName.startsWith("op_")) {
    return "Deno (Request, Response, streams, timers)";
  }
  return "other";
}

/**
 * CPU µs per request by phase: each phase's share of `profile`'s samples (counted, idle left out)
 * times `cpuUsPerRequest`, the CPU per request measured without the profiler.
 *
 * @returns printable lines, largest phase first
 */
export function phaseBreakdown(profile: Profile, cpuUsPerRequest: number): string[] {
  const parent = new Map<number, ProfileNode>();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parent.set(child, node);
  }
  const phaseOf = new Map<number, string | undefined>();
  const phase = (leaf: ProfileNode): string | undefined => {
    if (phaseOf.has(leaf.id)) return phaseOf.get(leaf.id);
    const { functionName, url } = leaf.callFrame;
    let found: string | undefined;
    // `writeBuffer` (a socket write) collects the samples of the event loop waiting for the
    // database, as `bench/peers/profile.ts` found: idle time, not CPU; so does `writev`, the
    // write of a statement with bound parameters (pg corks parse/bind/execute/sync into one).
    // The inspector's own calls (starting and stopping the profile) are not the server's either.
    if (["(idle)", "(root)", "writeBuffer", "writev"].includes(functionName)) found = undefined;
    else if (url.endsWith("/inspector.js")) found = undefined;
    else if (functionName === "(garbage collector)") found = "garbage collection";
    else if (functionName === "(program)") found = "native, not attributed (program)";
    else {
      let jit = false;
      let library = false;
      for (let node: ProfileNode | undefined = leaf; node; node = parent.get(node.id)) {
        found = ownPhase(node.callFrame.url);
        // A `serve()` frame owns only what it runs itself or through Deno's own code: what it
        // runs through a library (Yoga handling the request) is that library's.
        if (found?.startsWith("serve():") && library) found = undefined;
        if (found) break;
        jit ||= /graphql-jit/.test(node.callFrame.url);
        library ||= /registry\.npmjs\.org|node_modules/.test(node.callFrame.url);
      }
      if (!found || found === "Jit") {
        found = libraryPhase(url, functionName, jit || found === "Jit");
      }
    }
    phaseOf.set(leaf.id, found);
    return found;
  };
  const totals = new Map<string, number>();
  const others = new Map<string, number>();
  let total = 0;
  // Each sample counts once: a sample's time delta also holds the time the process waited for a
  // core before it (one sample after a 70 ms stall on a busy machine weighed as much as 300
  // ordinary ones), so summed deltas overweight whatever runs after a stall.
  for (const id of profile.samples) {
    const leaf = byId.get(id)!;
    const name = phase(leaf);
    if (!name) continue;
    totals.set(name, (totals.get(name) ?? 0) + 1);
    total++;
    if (name === Deno.env.get("BENCH_PHASES_DEBUG")) {
      const key = `${leaf.callFrame.functionName} ${leaf.callFrame.url}`;
      others.set(key, (others.get(key) ?? 0) + 1);
    }
  }
  if (Deno.env.get("BENCH_PHASES_DEBUG")) {
    for (const [key, count] of [...others].sort((a, b) => b[1] - a[1]).slice(0, 40)) {
      console.error(`other: ${(100 * count / total).toFixed(1)}% ${key}`);
    }
  }
  return [...totals].sort((a, b) => b[1] - a[1]).map(([name, count]) =>
    `  ${(cpuUsPerRequest * count / total).toFixed(1).padStart(7)} µs  ${
      (100 * count / total).toFixed(1).padStart(5)
    }%  ${name}`
  );
}
