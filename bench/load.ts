/**
 * The load generator of the server benchmarks: `wrk` when it is installed (a separate C process:
 * far less CPU than a JS client on the same cores), else fetch loops in this process (which
 * compete with the servers for the same cores).
 *
 * @module
 */

/** What one load run measured. */
export interface Load {
  /** Requests completed. */
  requests: number;
  /** Requests per second. */
  rps: number;
  /** Median latency, ms. */
  p50: number;
  /** 99th percentile latency, ms. */
  p99: number;
}

/** Path of `wrk`, or `undefined` when it is not installed. */
export function wrkPath(): string | undefined {
  try {
    return Deno.statSync("/usr/bin/wrk").isFile ? "/usr/bin/wrk" : undefined;
  } catch {
    return undefined;
  }
}

/** The load generator {@linkcode postLoad} uses, for the printed header. */
export function loadGenerator(): string {
  return wrkPath() ? "wrk" : "in-process fetch loops";
}

/**
 * POSTs `body` (JSON) to `url` from `concurrency` connections for `seconds`.
 *
 * @throws Error when a response is not 2xx (wrk) or carries GraphQL `errors` (in-process)
 */
export function postLoad(
  url: string,
  body: string,
  seconds: number,
  concurrency: number,
): Promise<Load> {
  return wrkPath()
    ? loadWithWrk(url, body, seconds, concurrency)
    : loadInProcess(url, body, seconds, concurrency);
}

async function loadWithWrk(
  url: string,
  body: string,
  seconds: number,
  concurrency: number,
): Promise<Load> {
  const script = await Deno.makeTempFile({ suffix: ".lua" });
  await Deno.writeTextFile(
    script,
    `wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = ${
      JSON.stringify(body)
    }\n`,
  );
  const result = await new Deno.Command(wrkPath()!, {
    args: ["-t1", `-c${concurrency}`, `-d${seconds}s`, "--latency", "-s", script, url],
    stdout: "piped",
  }).output();
  await Deno.remove(script);
  const out = new TextDecoder().decode(result.stdout);
  const ms = (label: string) => {
    const [, value, unit] = out.match(new RegExp(`${label}\\s+([\\d.]+)(us|ms|s)`))!;
    return Number(value) * (unit === "us" ? 0.001 : unit === "s" ? 1000 : 1);
  };
  if (/Non-2xx/.test(out)) throw new Error(`wrk saw errors:\n${out}`);
  return {
    requests: Number(out.match(/(\d+) requests in/)![1]),
    rps: Number(out.match(/Requests\/sec:\s+([\d.]+)/)![1]),
    p50: ms("50%"),
    p99: ms("99%"),
  };
}

async function loadInProcess(
  url: string,
  body: string,
  seconds: number,
  concurrency: number,
): Promise<Load> {
  const post = async () => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    const result = await response.json();
    if (result.errors) throw new Error(JSON.stringify(result.errors));
  };
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      await post();
      latencies.push(performance.now() - t0);
    }
  }));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return {
    requests: latencies.length,
    rps: latencies.length / elapsed,
    p50: at(0.5),
    p99: at(0.99),
  };
}
