import { type ClientSession, type Collection, type Db, MongoClient, MongoError, type TransactionOptions } from 'mongodb';
import { withDeadline } from './mongo-deadline.js';
import { translated } from './mongo-errors.js';
import { waitForWritablePrimary } from './mongo-startup-check.js';
import { runTransaction } from './mongo-transaction.js';

export interface MongoSettings {
  readonly uri: string;
  readonly dbName: string;
  /** How long an operation waits for a usable primary before failing (and the service answering 503). */
  readonly serverSelectionTimeoutMS?: number;
  /**
   * The deadline of one store operation or transaction, retries included (MONGODB_TIMEOUT_MS, default 5 s); also the
   * `wtimeoutMS` of every write. Past it the operation fails with StoreDeadlineExceeded (a 503).
   */
  readonly operationTimeoutMS?: number;
  /** How long start-up waits for the server to become a writable primary (default 10 s). */
  readonly startupWaitMS?: number;
}

export const DEFAULT_OPERATION_TIMEOUT_MS = 5_000;
const DEFAULT_STARTUP_WAIT_MS = 10_000;

/**
 * Thrown at start-up when no usable server answers in time, or the driver fails while preparing the database.
 * Names the database and the driver error's class, never the URI (it may hold a password).
 */
export class MongoUnreachable extends Error {
  constructor(settings: MongoSettings, cause: Error) {
    super(
      `Cannot reach a writable MongoDB primary for database "${settings.dbName}" (${cause.name}: ${cause.message}). ` +
        'Check MONGODB_URI; if the server is a standalone, start mongod with `--replSet rs0` and run `rs.initiate()`.',
      { cause },
    );
    this.name = 'MongoUnreachable';
  }
}

const transactionOptions = (wtimeoutMS: number): TransactionOptions => ({
  readConcern: { level: 'majority' },
  writeConcern: { w: 'majority', journal: true, wtimeoutMS },
  readPreference: 'primary',
});

/** The `health` collection: one document rewritten by every health check. */
interface HealthDocument {
  _id: string;
  checkedAt: Date;
}

/**
 * One MongoClient and the collections behind the Mongo adapters. Every write is acknowledged by a majority
 * of the replica set (journaled) before it resolves, so an acknowledged sign-up survives a failover.
 */
export class MongoStore {
  readonly health: Collection<HealthDocument>;

  /** The deadline of one operation or transaction; see MongoSettings.operationTimeoutMS. */
  readonly operationTimeoutMS: number;
  private readonly startupWaitMS: number;

  constructor(
    private readonly client: MongoClient,
    readonly db: Db,
    timeouts: Pick<MongoSettings, 'operationTimeoutMS' | 'startupWaitMS'> = {},
  ) {
    this.operationTimeoutMS = timeouts.operationTimeoutMS ?? DEFAULT_OPERATION_TIMEOUT_MS;
    this.startupWaitMS = timeouts.startupWaitMS ?? DEFAULT_STARTUP_WAIT_MS;
    this.health = db.collection<HealthDocument>('health');
  }

  /** Creates the client without any I/O; the driver connects on first use. */
  static create(settings: MongoSettings): MongoStore {
    const operationTimeoutMS = settings.operationTimeoutMS ?? DEFAULT_OPERATION_TIMEOUT_MS;
    const client = new MongoClient(settings.uri, {
      appName: 'account-service',
      serverSelectionTimeoutMS: Math.min(settings.serverSelectionTimeoutMS ?? 5_000, operationTimeoutMS),
      connectTimeoutMS: 5_000,
      socketTimeoutMS: operationTimeoutMS + 5_000,
      retryWrites: true,
      retryReads: true,
      writeConcern: { w: 'majority', journal: true, wtimeoutMS: operationTimeoutMS },
      readPreference: 'primary',
    });
    return new MongoStore(
      client,
      client.db(settings.dbName),
      { operationTimeoutMS, ...(settings.startupWaitMS === undefined ? {} : { startupWaitMS: settings.startupWaitMS }) },
    );
  }

  /** Creates the client, then `start()`s it; closes the client again when that fails. */
  static async open(settings: MongoSettings): Promise<MongoStore> {
    const store = MongoStore.create(settings);
    try {
      await store.start();
    } catch (error) {
      await store.close();
      throw error instanceof MongoError ? new MongoUnreachable(settings, error) : error;
    }
    return store;
  }

  /**
   * Waits (up to `startupWaitMS`) for a writable primary or a mongos, refusing a standalone (StandaloneMongoServer) and
   * naming the state of a member that never became writable (MongoNotWritablePrimary). Idempotent. (Each table's
   * indexes are created by MongoTables on its first use.)
   */
  async start(): Promise<void> {
    await waitForWritablePrimary(() => this.db.admin().command({ hello: 1 }), { waitMs: this.startupWaitMS, intervalMs: 500 });
  }

  /**
   * Runs a read or a write within the operation deadline, translating driver errors (see translateMongoError).
   * Pass `signal` to the driver call where it takes one (reads): the driver then abandons the call at the deadline.
   */
  guarded<T>(operation: (signal: AbortSignal) => Promise<T>): Promise<T> {
    return translated(() => withDeadline(this.operationTimeoutMS, operation));
  }

  /**
   * Runs `work` in one majority transaction, retried on transient errors while the operation deadline allows;
   * returns its result. Throws the driver's error, or StoreDeadlineExceeded once the deadline passed; untranslated.
   */
  transaction<T>(work: (session: ClientSession) => Promise<T>): Promise<T> {
    return withDeadline(this.operationTimeoutMS, (signal) => {
      const session = this.client.startSession();
      return runTransaction(session, work, transactionOptions(this.operationTimeoutMS), signal).finally(() => session.endSession());
    });
  }

  /** Closes the connection pool. Idempotent. */
  close(): Promise<void> {
    return this.client.close();
  }
}
