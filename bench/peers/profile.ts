/**
 * A V8 CPU profile of a Deno server process started with `--inspect=127.0.0.1:<port>`, taken
 * over the inspector protocol (`Profiler.start`/`Profiler.stop`) while a load runs, and
 * summarised as self time per area (MikroORM, graphql-js, Yoga, the driver, mikrogql's
 * runtime, garbage collection) and per function.
 *
 * @module
 */
import { median } from "../median.ts";

/** A free TCP port on 127.0.0.1 (for `--inspect`). */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** A V8 CPU profile as the inspector's `Profiler.stop` returns it. */
export interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * Profiles the process whose inspector listens on `port` while `during` runs.
 *
 * @param intervalUs the sampling interval, µs
 * @returns the summary as printable lines
 * @throws Error when the inspector does not answer
 */
export async function profileDuring(
  port: number,
  during: () => Promise<unknown>,
  intervalUs = 200,
): Promise<string[]> {
  return summarise(await captureProfile(port, during, intervalUs));
}

/**
 * The raw V8 CPU profile of the process whose inspector listens on `port`, taken while `during`
 * runs.
 *
 * @param intervalUs the sampling interval, µs
 * @throws Error when the inspector does not answer
 */
export async function captureProfile(
  port: number,
  during: () => Promise<unknown>,
  intervalUs = 200,
): Promise<Profile> {
  const [target] = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  let next = 0;
  const pending = new Map<number, (result: unknown) => void>();
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    pending.get(message.id)?.(message.result);
    pending.delete(message.id);
  };
  const send = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve) => {
      const id = ++next;
      pending.set(id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: intervalUs });
  await send("Profiler.start");
  await during();
  const { profile } = await send("Profiler.stop") as { profile: Profile };
  socket.close();
  return profile;
}

const AREAS: [string, RegExp][] = [
  ["MikroORM core (entities, unit of work, hydration)", /@mikro-orm\/core/],
  ["MikroORM sql + kysely + pg driver", /@mikro-orm\/sql|kysely|\/pg@|pg-protocol|pg-types/],
  ["graphql-js + @graphql-tools executor (validation, execution)", /\/graphql@|@graphql-tools\//],
  [
    "Yoga / envelop / whatwg-node (HTTP, parsing)",
    /graphql-yoga|@envelop|@whatwg-node|@graphql-yoga/,
  ],
  ["mikrogql runtime", /\/runtime\/|\/generated\//],
  ["Deno HTTP / fetch / streams", /^ext:|node:/],
];

/**
 * A profile's self time per area and its top functions, as printable lines.
 *
 * @param functions how many functions to list
 */
export function summarise(profile: Profile, functions = 40): string[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  // Each sample weighs one interval (the sampling interval, µs): a sample's time delta also
  // holds the time the process waited for a core before it, which on a busy machine gave one
  // sample after a 70 ms stall the weight of 300 ordinary ones.
  const interval = profile.timeDeltas.length ? median(profile.timeDeltas) : 0;
  for (const id of profile.samples) self.set(id, (self.get(id) ?? 0) + interval);
  const areas = new Map<string, number>();
  const selfTimes = new Map<string, number>();
  let total = 0;
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    // `writeBuffer` (node:net's socket write) collects the samples of the event loop waiting for
    // the database: thousands of samples where the process's CPU time grows by a fraction
    // (checked with pg alone: 77% of samples, 0.035 ms of CPU per statement). Idle, like `(idle)`.
    if (functionName === "(idle)" || functionName === "writeBuffer") continue;
    total += us;
    const area = functionName === "(garbage collector)"
      ? "garbage collection"
      : functionName === "(program)"
      ? "(program: native, not attributed)"
      : AREAS.find(([, pattern]) => pattern.test(url))?.[0] ?? "other JavaScript";
    areas.set(area, (areas.get(area) ?? 0) + us);
    const file = url.replace(/^.*\/(node_modules|registry\.npmjs\.org|wt-i12|main)\//, "");
    const key = `${functionName || "(anonymous)"} ${file ? `${file}:${lineNumber + 1}` : ""}`;
    selfTimes.set(key, (selfTimes.get(key) ?? 0) + us);
  }
  const percent = (us: number) => `${(100 * us / total).toFixed(1).padStart(5)}%`;
  const sorted = (map: Map<string, number>, n: number) =>
    [...map].sort((a, b) => b[1] - a[1]).slice(0, n);
  return [
    `CPU profile: ${(total / 1000).toFixed(0)} ms of samples (idle and socket waits excluded)`,
    "by area (self time):",
    ...sorted(areas, 20).map(([area, us]) => `  ${percent(us)}  ${area}`),
    "top functions (self time):",
    ...sorted(selfTimes, functions).map(([name, us]) => `  ${percent(us)}  ${name}`),
  ];
}
