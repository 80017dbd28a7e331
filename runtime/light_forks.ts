/**
 * A cheaper `em.fork()`: every fork (one per request, `context: () => ({ em: orm.em.fork() })`)
 * calls MikroORM 7's `Configuration.set("allowGlobalContext", ...)` twice, and each `set` re-syncs
 * what the configuration derives from its logging options (`Configuration.sync`: it writes
 * `process.env.MIKRO_ORM_COLORS`, which Deno carries out as a system call, sets the logger's
 * debug mode and drops the slow-query logger), though `allowGlobalContext` changes none of them:
 * a few µs of CPU per request, some 4% of a request that reads nothing (`bench/peers.ts`'s
 * floor, profiled). {@linkcode lightenForks} makes the sync of one ORM's configuration skip
 * when the options it derives from (`colors`, `debug`, `logger`, `highlighter`,
 * `slowQueryLoggerFactory`, `replicas`) are the ones it last synced, and run as before otherwise.
 *
 * Installed by `openOrm` (`server/open_orm.ts`) and by `fromContext` (an ORM a user opened with
 * `MikroORM.init`), on the configuration object: other ORMs of the process are untouched.
 *
 * @module
 */
import type { Configuration } from "@mikro-orm/core";

/** The options `Configuration.sync` derives state from (MikroORM 7.2, `utils/Configuration.js`). */
const SYNCED = [
  "colors",
  "debug",
  "logger",
  "highlighter",
  "slowQueryLoggerFactory",
  "replicas",
] as const;

const LIGHTENED = new WeakSet<object>();

/**
 * Makes `owner`'s configuration (an ORM's or an EntityManager's `config`) skip re-syncing its
 * logging state when a `set` changed none of the options it derives from (see the module
 * documentation). Calling it again on the same configuration does nothing.
 *
 * @example
 * ```ts
 * import { MikroORM } from "@mikro-orm/core";
 * import { lightenForks } from "./light_forks.ts";
 * import config from "./mikro-orm.config.ts";
 *
 * const orm = await MikroORM.init(config);
 * lightenForks(orm); // orm.em.fork() no longer writes process.env
 * ```
 */
export function lightenForks(owner: { readonly config: Configuration }): void {
  const config = owner.config as unknown as SyncedConfiguration;
  if (LIGHTENED.has(config) || typeof config.sync !== "function") return;
  LIGHTENED.add(config);
  const sync = config.sync;
  const synced: unknown[] = SYNCED.map((key) => config.get(key));
  config.sync = function (this: SyncedConfiguration) {
    let changed = false;
    for (let i = 0; i < SYNCED.length; i++) {
      const value = this.get(SYNCED[i]);
      if (value !== synced[i]) {
        synced[i] = value;
        changed = true;
      }
    }
    if (changed) sync.call(this);
  };
}

/** What {@linkcode lightenForks} uses of MikroORM's `Configuration` (`sync` is private). */
interface SyncedConfiguration {
  get(key: string): unknown;
  sync(): void;
}
