import pg from 'pg';
import { ServiceUnavailable } from '../../application/errors.js';

export interface PostgresSettings {
  /** The connection string (DATABASE_URL): postgres://user:password@host:port/database. */
  readonly url: string;
  /** The deadline of one store operation or commit, retries included (default 5 s); past it a 503. */
  readonly timeoutMs?: number;
  /** Connections kept at most (default 10). */
  readonly maxConnections?: number;
}

export const DEFAULT_TIMEOUT_MS = 5_000;
/** How long a client should wait before retrying while PostgreSQL is unreachable. */
export const STORE_RETRY_AFTER_SECONDS = 5;

/** The key of the advisory lock held around the schema's creation, so that instances starting together create it once. */
const SCHEMA_LOCK = 0x6163_6374; // 'acct'

/**
 * The schema: one generic table of records and one of index entries, not a table per declared table. Tables are
 * declared by manifests (storage/store.ts, `Table`) and a manifest may add one at any release: with one generic
 * table no DDL follows a manifest, the schema stays these few statements, and every row is addressed as the shared
 * commit plan addresses it, by (table, key). Records keep their shape as written, Dates included, as node:v8's
 * structured serialization (bytea), the way LMDB keeps msgpack; index entries are the encoded strings of store.ts,
 * compared bytewise (COLLATE "C": UTF-8 bytes sort as code points, as LMDB and MongoDB sort them).
 */
const SCHEMA = [
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
];

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
 * What a driver error is to the service: a server error that says it cannot serve now, or any failure of the pool
 * or the connection (refused, lost, ended, timed out), is a 503 (ServiceUnavailable('store_unavailable')); any other
 * server error a PostgresStoreFailure.
 */
export function translated(error: unknown): Error {
  const code = sqlState(error);
  if (code === undefined || UNAVAILABLE_CLASSES.has(code.slice(0, 2)) || code === '25P03') {
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

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One connection pool and the schema behind the PostgreSQL adapters. Commits are durable (synchronous_commit) when they resolve. */
export class PostgresStore {
  readonly timeoutMs: number;
  private ended = false;

  private constructor(
    private readonly pool: pg.Pool,
    timeoutMs: number,
  ) {
    this.timeoutMs = timeoutMs;
  }

  /** Opens the pool and creates the schema (idempotent, under an advisory lock); closes the pool again when that fails. */
  static async open(settings: PostgresSettings): Promise<PostgresStore> {
    const timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const pool = new pg.Pool({
      connectionString: settings.url,
      max: settings.maxConnections ?? 10,
      connectionTimeoutMillis: timeoutMs,
      statement_timeout: timeoutMs,
      application_name: 'account-service',
    });
    // An idle connection the server drops is an error of the pool, not of a query: without a listener it would end the process.
    pool.on('error', () => undefined);
    const store = new PostgresStore(pool, timeoutMs);
    try {
      await store.createSchema();
    } catch (error) {
      await store.close();
      throw new PostgresUnreachable(error);
    }
    return store;
  }

  private async createSchema(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
      for (const statement of SCHEMA) await client.query(statement);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** One statement outside any transaction; driver errors translated. */
  async query<T extends pg.QueryResultRow>(text: string, values: readonly unknown[] = []): Promise<pg.QueryResult<T>> {
    if (this.ended) throw translated(new Error('the PostgreSQL pool is closed'));
    try {
      return await this.pool.query<T>(text, values as unknown[]);
    } catch (error) {
      throw translated(error);
    }
  }

  /**
   * Runs `work` in one SERIALIZABLE transaction on one connection, run again from the start after a serialization
   * failure, a deadlock or a unique violation (a concurrent insert of the same key) while the deadline allows.
   * Driver errors are translated; an error `work` throws for its own reasons rolls back and propagates as it is.
   */
  async transaction<T>(work: (query: (text: string, values?: readonly unknown[]) => Promise<pg.QueryResult>) => Promise<T>): Promise<T> {
    if (this.ended) throw translated(new Error('the PostgreSQL pool is closed'));
    const deadline = Date.now() + this.timeoutMs;
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw translated(error);
    }
    let broken: unknown;
    const query = async (text: string, values: readonly unknown[] = []) => {
      try {
        return await client.query(text, values as unknown[]);
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
          await client.query('ROLLBACK').catch((rollback: unknown) => (broken = rollback));
          if (!(error instanceof DriverError)) throw error;
          const code = sqlState(error.cause);
          if (code !== undefined && RETRIED.has(code) && broken === undefined && Date.now() < deadline) {
            await pause(Math.random() * Math.min(5 * 1.5 ** attempt, 100));
            continue;
          }
          if (sqlState(error.cause) === undefined) broken = error.cause;
          throw translated(error.cause);
        }
      }
    } finally {
      client.release(broken instanceof Error ? broken : undefined);
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
