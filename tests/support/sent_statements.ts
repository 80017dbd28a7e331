/**
 * What a database driver is asked to send, recorded at the driver: the SQL text and the values
 * beside it. PostgreSQL: `pg`'s `client.query(text, values)` on every pooled client (through
 * MikroORM's `onPoolCreated`); SQLite: MikroORM's `node:sqlite` dialect rebuilt with every
 * prepared statement's run recorded. Pass {@linkcode recordingOptions}' result as `openTestOrm`'s
 * extra options.
 */
import { SqliteDialect } from "kysely";
import { DatabaseSync } from "node:sqlite";
import type { DatabaseKind } from "../../server/open_orm.ts";

/** One statement as the driver was asked to send it. */
export interface Sent {
  text: string;
  values: readonly unknown[];
}

/**
 * MikroORM options making `dialect`'s driver push every statement it sends into `sent`
 * (PostgreSQL and SQLite; MariaDB's mysql2 formats values into the text itself).
 *
 * @throws Error for MariaDB
 */
export function recordingOptions(dialect: DatabaseKind, sent: Sent[]): object {
  if (dialect === "postgresql") {
    return {
      driverOptions: {
        onPoolCreated: (pool: {
          on(
            event: "connect",
            listener: (client: { query: (...args: unknown[]) => unknown }) => void,
          ): void;
        }) =>
          pool.on("connect", (client) => {
            const query = client.query.bind(client);
            client.query = (text: unknown, values: unknown, ...rest: unknown[]) => {
              if (typeof text === "string") {
                sent.push({ text, values: Array.isArray(values) ? values : [] });
              }
              return query(text, values, ...rest);
            };
          }),
      },
    };
  }
  if (dialect !== "sqlite") throw new Error(`no statement recorder for ${dialect}`);
  return {
    driverOptions: new SqliteDialect({
      // deno-lint-ignore require-await
      database: async () => {
        const db = new DatabaseSync(":memory:");
        return {
          prepare(text: string) {
            const statement = db.prepare(text);
            const record = (values: unknown[]) => sent.push({ text, values });
            return {
              reader: /^\s*(select|pragma|explain|with)/i.test(text) ||
                /\breturning\b/i.test(text),
              all: (values: never[]) => (record(values), statement.all(...values)),
              run: (values: never[]) => (record(values), statement.run(...values)),
              get: (values: never[]) => (record(values), statement.get(...values)),
            };
          },
          close: () => db.close(),
        } as never;
      },
    }),
  };
}
