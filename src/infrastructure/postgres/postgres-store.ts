import pg from 'pg';
import { ServiceUnavailable } from '../../application/errors.js';

export interface PostgresSettings {
  /** The connection string (DATABASE_URL): postgres://user:password@host:port/database. */
  readonly url: string;
  /** The deadline of one store operation or commit, retries included (default 5 s); past it a 503. */
  readonly timeoutMs?: number;
  /** How long opening a connection may take (default: timeoutMs); for a long `timeoutMs` that should not wait as long on a server that does not answer. */
  readonly connectTimeoutMs?: number;
  /** Connections kept at most (default 10). */
  readonly maxConnections?: number;
}

export const DEFAULT_TIMEOUT_MS = 5_000;
/** How long a client should wait before retrying while PostgreSQL is unreachable. */
export const STORE_RETRY_AFTER_SECONDS = 5;

/** The key of the advisory lock held around the schema's migration, so that instances starting together migrate it once. */
const SCHEMA_LOCK = 0x6163_6374; // 'acct'

/**
 * The schema, as the migrations that make it: the version of a database is the number of them applied, kept in
 * `store_schema`. A migration only adds (a table, a column with a default, an index), so that the instances of the
 * release before keep working on the newer schema during a rolling deploy; one that must remove something ships a
 * release after the one that stopped using it.
 *
 * Version 1, one generic table of records and one of index entries, not a table per declared table: tables are
 * declared by manifests (storage/store.ts, `Table`) and a manifest may add one at any release; with one generic
 * table no DDL follows a manifest, and every row is addressed as the shared commit plan addresses it, by (table,
 * key). Records keep their shape as written, Dates included, as node:v8's structured serialization (bytea), the way
 * LMDB keeps msgpack; index entries are the encoded strings of store.ts, compared bytewise (COLLATE "C": UTF-8 bytes
 * sort as code points, as LMDB and MongoDB sort them).
 */
export const MIGRATIONS: readonly (readonly string[])[] = [
  [
    `CREATE TABLE IF NOT EXISTS store_rows (
       tbl text COLLATE "C" NOT NULL,
       key text COLLATE "C" NOT NULL,
       version integer NOT NULL,
       value bytea NOT NULL,
       PRIMARY KEY (tbl, key))`,
    `CREATE TABLE IF NOT EXISTS store_entries (
       tbl text COLLATE "C" NOT NULL,
       idx text COLLATE "C" NOT NULL,
       entry text COLLATE "C" NOT NULL,
       key text COLLATE "C" NOT NULL,
       PRIMARY KEY (tbl, idx, entry))`,
    'CREATE INDEX IF NOT EXISTS store_entries_of_row ON store_entries (tbl, key)',
    'CREATE TABLE IF NOT EXISTS store_health (id text PRIMARY KEY, checked_at timestamptz NOT NULL)',
  ],
];

/** The schema version a database was at and is at after `PostgresStore.open` (or `migrate`). */
export interface SchemaVersion {
  readonly before: number;
  readonly after: number;
  /** The version this release knows (MIGRATIONS.length); below `after` when a newer release migrated first. */
  readonly known: number;
}

/** SQLSTATEs after which a serializable transaction is run again: serialization failure, deadlock, unique violation. */
const RETRIED: ReadonlySet<string> = new Set(['40001', '40P01', '23505']);

/** SQLSTATE classes that mean "the server cannot serve now" (connection, resources, operator intervention, system). */
const UNAVAILABLE_CLASSES: ReadonlySet<string> = new Set(['08', '53', '57', '58']);

const sqlState = (error: unknown): string | undefined => (error instanceof pg.DatabaseError ? error.code : undefined);

/** A PostgreSQL failure that is neither a domain outcome nor an outage. Its message names the SQLSTATE only. */
export class PostgresStoreFailure extends Error {
  constructor(cause: pg.DatabaseError) {
    super(`PostgreSQL operation failed (SQLSTATE ${cause.code ?? 'unknown'})`, { cause });
    this.name = 'PostgresStoreFailure';
  }
}

/**
 * What a driver error is to the service: a server error that says it cannot serve now, a conflict that outlasted the
 * deadline, or any failure of the pool or the connection (refused, lost, ended, timed out), is a 503 (ServiceUnavailable('store_unavailable')); any other
 * server error a PostgresStoreFailure.
 */
export function translated(error: unknown): Error {
  const code = sqlState(error);
  // A conflict still there at the deadline (RETRIED: the transaction was run again until then) is contention, not a fault.
  if (code === undefined || UNAVAILABLE_CLASSES.has(code.slice(0, 2)) || code === '25P03' || RETRIED.has(code)) {
    return new ServiceUnavailable('store_unavailable', STORE_RETRY_AFTER_SECONDS, error);
  }
  return new PostgresStoreFailure(error as pg.DatabaseError);
}

/** Thrown at start-up when the server does not answer or refuses the schema; names the cause, never the URL. */
export class PostgresUnreachable extends Error {
  constructor(cause: unknown) {
    const text = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
    super(`Cannot prepare the PostgreSQL store (${text}). Check DATABASE_URL.`, { cause });
    this.name = 'PostgresUnreachable';
  }
}

/** A statement the driver stops waiting for after `ms` (pg reads `query_timeout` from a query's config too: lib/client.js; its types omit it). */
const timed = (text: string, values: readonly unknown[], ms: number): pg.QueryConfig<unknown[]> =>
  ({ text, values: [...values], query_timeout: Math.max(1, ms) }) as pg.QueryConfig<unknown[]>;

/** The clients whose 'error' event this module listens to (PostgresStore.connect). */
const listened = new WeakSet<pg.PoolClient>();

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One connection pool and the schema behind the PostgreSQL adapters. Commits are durable (synchronous_commit) when they resolve. */
export class PostgresStore {
  readonly timeoutMs: number;
  private ended = false;
  private schemaVersion: SchemaVersion = { before: 0, after: 0, known: MIGRATIONS.length };

  private constructor(
    private readonly pool: pg.Pool,
    timeoutMs: number,
  ) {
    this.timeoutMs = timeoutMs;
  }

  /**
   * Opens the pool and migrates the schema (idempotent, under an advisory lock); closes the pool again when that
   * fails. Every operation then has `timeoutMs` in all, from waiting for a connection to the last statement's answer:
   * the server ends a statement past it (statement_timeout), the driver stops waiting for an answer that does not
   * come (a partition, a frozen server) and drops that connection.
   */
  static async open(settings: PostgresSettings): Promise<PostgresStore> {
    const timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const pool = new pg.Pool({
      connectionString: settings.url,
      max: settings.maxConnections ?? 10,
      connectionTimeoutMillis: settings.connectTimeoutMs ?? timeoutMs,
      statement_timeout: timeoutMs,
      // A transaction left open by a process that died mid-commit holds its locks until this, not until TCP notices.
      idle_in_transaction_session_timeout: 2 * timeoutMs,
      keepAlive: true,
      application_name: 'account-service',
    });
    // An idle connection the server drops is an error of the pool, not of a query: without a listener it would end the process.
    pool.on('error', () => undefined);
    const store = new PostgresStore(pool, timeoutMs);
    try {
      store.schemaVersion = await store.migrate();
    } catch (error) {
      await store.close();
      throw new PostgresUnreachable(error);
    }
    return store;
  }

  /** The schema's version when this store opened it, and after. */
  get schema(): SchemaVersion {
    return this.schemaVersion;
  }

  /** Applies the migrations the database lacks, in one transaction, under the advisory lock. */
  private async migrate(): Promise<SchemaVersion> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
      await client.query('CREATE TABLE IF NOT EXISTS store_schema (id integer PRIMARY KEY CHECK (id = 1), version integer NOT NULL)');
      const { rows } = await client.query<{ version: number }>('SELECT version FROM store_schema WHERE id = 1');
      const before = rows[0]?.version ?? 0;
      for (const statements of MIGRATIONS.slice(before)) for (const statement of statements) await client.query(statement);
      const after = Math.max(before, MIGRATIONS.length);
      await client.query('INSERT INTO store_schema (id, version) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version', [after]);
      await client.query('COMMIT');
      return { before, after, known: MIGRATIONS.length };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /**
   * A connection of the pool, within the operation's deadline. A connection lost while checked out fails its query
   * and is also emitted as the client's 'error' event, which the pool listens to only while the client is idle: the
   * listener added here (once per client) keeps that event from ending the process; the failed query tells the caller.
   */
  private async connect(): Promise<pg.PoolClient> {
    if (this.ended) throw translated(new Error('the PostgreSQL pool is closed'));
    try {
      const client = await this.pool.connect();
      if (!listened.has(client)) {
        listened.add(client);
        client.on('error', () => undefined);
      }
      return client;
    } catch (error) {
      throw translated(error);
    }
  }

  /** One statement outside any transaction, answered within the deadline; driver errors translated. */
  async query<T extends pg.QueryResultRow>(text: string, values: readonly unknown[] = []): Promise<pg.QueryResult<T>> {
    const deadline = Date.now() + this.timeoutMs;
    const client = await this.connect();
    try {
      const result = await client.query<T>(timed(text, values, deadline - Date.now()));
      client.release();
      return result;
    } catch (error) {
      // A statement the server refused leaves the connection usable; any other failure (no answer, a lost socket) does not.
      client.release(sqlState(error) === undefined ? (error as Error) : undefined);
      throw translated(error);
    }
  }

  /**
   * Runs `work` in one SERIALIZABLE transaction on one connection, run again from the start after a serialization
   * failure, a deadlock or a unique violation (a concurrent insert of the same key) while the deadline allows.
   * Driver errors are translated; an error `work` throws for its own reasons rolls back and propagates as it is.
   */
  async transaction<T>(work: (query: (text: string, values?: readonly unknown[]) => Promise<pg.QueryResult>) => Promise<T>): Promise<T> {
    const deadline = Date.now() + this.timeoutMs;
    const client = await this.connect();
    let broken: unknown;
    const query = async (text: string, values: readonly unknown[] = []) => {
      const left = deadline - Date.now();
      try {
        if (left <= 0) throw new Error('the store deadline passed');
        return await client.query(timed(text, values, left));
      } catch (error) {
        throw new DriverError(error);
      }
    };
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          await query('BEGIN ISOLATION LEVEL SERIALIZABLE');
          const result = await work(query);
          await query('COMMIT');
          return result;
        } catch (error) {
          if (!(error instanceof DriverError) || sqlState(error.cause) !== undefined) {
            await client.query(timed('ROLLBACK', [], Math.max(100, deadline - Date.now()))).catch((rollback: unknown) => (broken = rollback));
          } else {
            broken = error.cause;
          }
          if (!(error instanceof DriverError)) throw error;
          const code = sqlState(error.cause);
          if (code !== undefined && RETRIED.has(code) && broken === undefined && Date.now() < deadline) {
            await pause(Math.random() * Math.min(5 * 1.5 ** attempt, 100));
            continue;
          }
          throw translated(error.cause);
        }
      }
    } finally {
      client.release(broken === undefined ? undefined : broken instanceof Error ? broken : new Error('the connection failed', { cause: broken }));
    }
  }

  /** Closes the pool. Idempotent. */
  async close(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    await this.pool.end();
  }
}

/** A driver error inside a transaction, told apart from what the transaction's own code throws. */
class DriverError extends Error {
  constructor(override readonly cause: unknown) {
    super('PostgreSQL driver error', { cause });
  }
}
