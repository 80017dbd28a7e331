/**
 * `@mikrogql/ext/server`: running a generated API as a production server. `openOrm` opens
 * MikroORM from a database URL (SQLite through Deno's `node:sqlite`, PostgreSQL, MariaDB);
 * `serve` serves a schema with every plugin of the preset plus graceful shutdown, `/health` and
 * `/ready`, a request log, CORS and production defaults for GraphiQL and introspection.
 *
 * A separate entry point from `@mikrogql/ext`, which generated modules import: a project that
 * builds its own server with `createYoga` and the preset loads none of this (nor the database
 * drivers `openOrm` imports).
 *
 * @module
 */
export { type DatabaseKind, databaseKindOf, openOrm, type OpenOrmOptions } from "./open_orm.ts";
export { exactFloatTypeCast, type TypeCastField } from "./mariadb_type_cast.ts";
export { type MikrogqlServer, serve, type ServeOptions } from "./serve.ts";
export type { CorsOptions } from "./cors.ts";
export type { ConnectionTimeouts } from "./connection_timeouts.ts";
export type { ShutdownOptions, ShutdownResult } from "./graceful_shutdown.ts";
export type { RequestLogEntry, RequestLogFormat } from "./request_log.ts";
export type { TracingOptions } from "./tracing.ts";
export type { MetricsOptions } from "./metrics.ts";
export type {
  PersistedOperationsManifest,
  PersistedOperationsOptions,
} from "../runtime/plugins/persisted_operations.ts";
export type { WebSocketOptions } from "./websocket.ts";
export type { ChangeFeed, ChangeFeedOptions } from "../runtime/events/change_feed.ts";
