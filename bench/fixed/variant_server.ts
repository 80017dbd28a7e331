/**
 * One server of the fixed-path benchmark (`bench/fixed_path.ts`), answering the floor
 * `{ __typename }` with as much of the stack as its variant names:
 * `deno run -A bench/fixed/variant_server.ts <variant> <database url>`, printing
 * `listening <port>`.
 *
 * - `bare`: `Deno.serve` reading the body as JSON and answering the floor's JSON itself;
 * - `yoga`: `Deno.serve` handing the request to `createYoga` with `mikrogqlPreset` and a
 *   context of `{ em: orm.em.fork() }`, as docs/getting-started's hand-built server;
 * - `bare-signal`: `bare` that also listens to `request.signal` while it answers;
 * - `bare-body`: `bare` that also reads `request.body` (the stream object) before the JSON;
 * - `yoga-no-em`: the same with an empty context (no EntityManager forked);
 * - `yoga-handle`: `yoga-no-em` calling `yoga.handleRequest` instead of `yoga.fetch` (which races
 *   the answer with `request.signal`);
 * - `enveloped`: `Deno.serve` reading the JSON body itself and running the preset's envelop
 *   pipeline (`yoga.getEnveloped`: parse, validate, context, execute, every envelop hook of the
 *   plugins) with the lazy EntityManager, then `JSON.stringify` of the result: Yoga's HTTP layer
 *   (its request parser, `onRequest`/`onRequestParse`/`onParams`/`onResultProcess`/`onResponse`
 *   hooks, result processing) left out. Not a server to run (no error masking of request
 *   errors, no HTTP status rules): the ceiling of a `serve()` path that keeps envelop's hooks;
 * - `serve-bare`: `serve()` with its log and every timeout off;
 * - `serve-timeout`: `serve()` with its log off and its default body timeout;
 * - `serve-log-fn`: `serve-timeout` with a log function that drops the entries (the request scope
 *   and its recorder, no line written);
 * - `serve`: `serve()` as the README runs it (its default log, on a pipe, and body timeout);
 * - `serve-yoga`: `serve` with `fastPath: false`: every request through `yoga.fetch`, as before
 *   the fast path (`server/fast_path.ts`).
 *
 * @module
 */
import { createYoga } from "graphql-yoga";
import { mikrogqlPreset } from "../../runtime/plugins/preset.ts";
import { serve } from "../../server/serve.ts";
import { createSchema } from "../../examples/blog/generated/mod.ts";
import { openBenchOrm } from "../bench_server.ts";
import { defineLazyEntityManager } from "../../runtime/request/lazy_entity_manager.ts";

const [variant, url] = Deno.args;
const listen = (handler: Deno.ServeHandler) =>
  Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: ({ port }) => console.log(`listening ${port}`),
  }, handler);

if (variant.startsWith("bare")) {
  const answer = JSON.stringify({ data: { __typename: "Query" } });
  const onAbort = () => {};
  listen(async (request) => {
    const signal = variant === "bare-signal" ? request.signal : undefined;
    signal?.addEventListener("abort", onAbort);
    if (variant === "bare-body" && request.body === null) throw new Error("no body");
    await request.json();
    signal?.removeEventListener("abort", onAbort);
    return new Response(answer, { headers: { "content-type": "application/json" } });
  });
} else {
  const { orm } = await openBenchOrm(url);
  const schema = createSchema();
  if (variant === "enveloped") {
    const yoga = createYoga({ schema, ...mikrogqlPreset({ txOpener: orm }) });
    const fork = () => orm.em.fork();
    listen(async (request) => {
      const params = await request.json();
      const initial = { request, params };
      defineLazyEntityManager(initial, fork);
      const { parse, validate, contextFactory, execute, schema } = yoga.getEnveloped(initial);
      const document = parse(params.query);
      const errors = validate(schema, document);
      if (errors.length) return Response.json({ errors }, { status: 400 });
      const result = await execute({
        schema,
        document,
        contextValue: await contextFactory(),
        variableValues: params.variables,
        operationName: params.operationName,
      });
      return new Response(JSON.stringify(result), {
        headers: { "content-type": "application/json" },
      });
    });
  } else if (variant.startsWith("yoga")) {
    const yoga = createYoga({
      schema,
      context: variant === "yoga" ? () => ({ em: orm.em.fork() }) : () => ({}),
      ...mikrogqlPreset({ txOpener: orm }),
    });
    listen(
      variant === "yoga-handle"
        ? (request) => yoga.handleRequest(request, {})
        : (request) => yoga.fetch(request),
    );
  } else if (variant.startsWith("serve")) {
    const server = await serve({
      orm,
      schema,
      port: 0,
      ...(variant === "serve" || variant === "serve-yoga"
        ? {}
        : variant === "serve-log-fn"
        ? { log: () => {} }
        : { log: false as const }),
      ...(variant === "serve-bare" ? { timeouts: false as const } : {}),
      ...(variant === "serve-yoga" ? { fastPath: false } : {}),
    });
    console.log(`listening ${server.addr.port}`);
  } else throw new Error(`unknown variant ${variant}`);
}
