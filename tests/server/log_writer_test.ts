/**
 * The request log's buffered writer: against a sink that takes random partial writes at random
 * moments (random lines, multi-byte text included; printed seed), the bytes written are exactly
 * the lines in order; a sink that takes nothing never blocks `write`, and the lines over the bound
 * are dropped, counted and reported once the sink takes lines again; a failing sink drops without
 * throwing. Then `serve()`'s default JSON log with its stdout piped to a reader that stops
 * reading: thousands of requests are all answered (the pipe is full long before), and once read,
 * stdout holds every request's line.
 */
import { assert, assertEquals } from "@std/assert";
import { bufferedLogWriter, type LineSink } from "../../server/log_writer.ts";
import { random } from "../support/random_data.ts";

const decoder = new TextDecoder();
/** Characters of random lines: 1- to 4-byte UTF-8, and JSON's quoting characters. */
const CHARACTERS = [...'aé€😀{"}\\'];

/** A sink whose writes complete only when `release()` lets them (each takes `take(n)` bytes). */
function gatedSink(take: (length: number) => number) {
  const chunks: Uint8Array[] = [];
  let gate = Promise.withResolvers<void>();
  let open = false;
  const sink: LineSink = {
    async write(bytes) {
      if (!open) await gate.promise;
      const n = Math.max(1, Math.min(bytes.length, take(bytes.length)));
      chunks.push(bytes.slice(0, n));
      return n;
    },
  };
  return {
    sink,
    text: () => new TextDecoder().decode(new Uint8Array(chunks.flatMap((c) => [...c]))),
    release() {
      open = true;
      gate.resolve();
    },
    close() {
      open = false;
      gate = Promise.withResolvers<void>();
    },
  };
}

Deno.test("log writer: random lines through random partial writes arrive whole, in order", async () => {
  for (const seed of [1, 2, 3, Date.now() % 100_000]) {
    console.log(`seed ${seed}`);
    const rand = random(seed);
    const sink = gatedSink((length) => Math.ceil(rand() * length));
    sink.release();
    const writer = bufferedLogWriter(sink.sink, 1 << 24);
    const lines: string[] = [];
    for (let i = 0; i < 300; i++) {
      const line = Array.from(
        { length: Math.floor(rand() * 80) },
        () => CHARACTERS[Math.floor(rand() * CHARACTERS.length)],
      ).join("");
      lines.push(line);
      writer.write(line);
      if (rand() < 0.1) await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await writer.flush(60_000);
    assertEquals(sink.text(), lines.map((line) => `${line}\n`).join(""), `seed ${seed}`);
    assertEquals(writer.dropped, 0);
  }
});

Deno.test("log writer: a sink that takes nothing never blocks; drops counted, then reported", async () => {
  const sink = gatedSink((length) => length);
  const writer = bufferedLogWriter(sink.sink, 100, (count) => `dropped ${count}`);
  // The first line goes to the (stalled) sink; the next ones fill the 100-unit buffer.
  writer.write("line 000");
  await new Promise((resolve) => setTimeout(resolve, 0));
  for (let i = 1; i <= 50; i++) writer.write(`line ${String(i).padStart(3, "0")}`);
  // Every line is 9 units (8 + newline): 11 fit in 100, 39 are dropped.
  assertEquals(writer.dropped, 39);
  sink.release();
  await writer.flush(60_000);
  const written = sink.text().split("\n").filter(Boolean);
  assertEquals(written, [
    ...Array.from({ length: 12 }, (_, i) => `line ${String(i).padStart(3, "0")}`),
    "dropped 39",
  ]);
  // The buffer has room again: lines are kept, no second report.
  writer.write("after");
  await writer.flush(60_000);
  assertEquals(sink.text().split("\n").filter(Boolean).at(-1), "after");
  assertEquals(writer.dropped, 39);
});

Deno.test("log writer: a sink that fails (a closed pipe) drops without throwing", async () => {
  let calls = 0;
  const writer = bufferedLogWriter({
    write() {
      calls++;
      return Promise.reject(new Deno.errors.BrokenPipe("closed"));
    },
  });
  writer.write("a");
  writer.write("b");
  await writer.flush(60_000);
  writer.write("c");
  await writer.flush(60_000);
  assertEquals(writer.dropped, 3);
  assertEquals(calls, 1);
});

Deno.test({
  name: "serve()'s JSON log on a pipe nobody reads: every request answered, every line kept",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL("../../examples/blog/server.ts", import.meta.url).pathname],
      env: { DATABASE_URL: "sqlite::memory:", PORT: "0", NODE_ENV: "production" },
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const reader = child.stdout.getReader();
    let text = "";
    try {
      // Read up to the banner, then stop reading: the pipe fills as the server logs.
      while (!/GraphQL at (\S+)/.test(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the server exited before listening:\n${text}`);
        text += decoder.decode(value, { stream: true });
      }
      const url = text.match(/GraphQL at (\S+)/)![1];
      const requests = 3_000;
      const body = JSON.stringify({ query: "query Probe { __typename }" });
      let next = 0;
      await Promise.all(Array.from({ length: 10 }, async () => {
        while (next < requests) {
          next++;
          const response = await fetch(url, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body,
            // A guard against a hang (the server stalled on its stdout), not a timing assertion.
            signal: AbortSignal.timeout(120_000),
          });
          assertEquals(await response.json(), { data: { __typename: "Query" } });
        }
      }));
      child.kill("SIGTERM");
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      assertEquals((await child.status).code, 0);
      const entries = text.split("\n").filter((line) => line.startsWith("{")).map((line) =>
        JSON.parse(line)
      );
      const probes = entries.filter((entry) => entry.operation === "Probe");
      assertEquals(probes.length, requests);
      assert(probes.every((entry) => entry.status === 200 && entry.statements === 0));
      assertEquals(entries.at(-1).event, "stopped");
    } finally {
      try {
        child.kill();
      } catch { /* exited */ }
      await reader.cancel().catch(() => {});
      await child.status;
    }
  },
});

Deno.test("log writer: the lines of a busy spell go out in one write per interval", async () => {
  const writes: string[] = [];
  const writer = bufferedLogWriter(
    {
      write(bytes) {
        writes.push(decoder.decode(bytes));
        return Promise.resolve(bytes.length);
      },
    },
    1 << 20,
    undefined,
    60_000,
  );
  // The first line after a quiet spell is written at once.
  writer.write("a");
  await new Promise((resolve) => setTimeout(resolve, 0));
  assertEquals(writes, ["a\n"]);
  // The next ones wait for the interval (here cut short by flush), each a macrotask apart.
  for (const line of ["b", "c", "d"]) {
    writer.write(line);
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  assertEquals(writes, ["a\n"]);
  await writer.flush(60_000);
  assertEquals(writes, ["a\n", "b\nc\nd\n"]);
});
