import { ServiceUnavailable } from '../../application/errors.js';
import type { AnyTable, Changes, CommitOutcome, KeyPart, RangeQuery, Store, Stored, Table } from './store.js';

/** What a refused call tells a client: the store is going away with the process, so ask again elsewhere soon. */
const RETRY_AFTER_SECONDS = 5;

const refused = <T>(): Promise<T> => Promise.reject(new ServiceUnavailable('store_unavailable', RETRY_AFTER_SECONDS));

/**
 * A store that can be closed while work is still arriving, the same way for every technology: `close` lets no new
 * read or commit through (each refused with ServiceUnavailable('store_unavailable'), a 503), waits until every commit
 * it let in has settled, and only then closes the store under it, once.
 *
 * Work does arrive during a stop: a request whose client went away has no connection to hold the HTTP server open, so
 * the server closes while its use case still runs, and the use case reaches the store after its hash. lmdb-js, read
 * or written in the moments between the start of its close and its end, throws from its own timers and can take the
 * process down (`tests/contract/storage.contract.ts`, "closes once the reads and commits it let in have settled").
 */
export class ClosingStore implements Store {
  private running = 0;
  private idle: (() => void) | undefined;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly inner: Store,
    private readonly closeInner: () => Promise<void>,
  ) {}

  // A read is refused once closing but not waited for: LMDB and memory read within the call, and a MongoDB read cut
  // short by its client's close fails as a store failure (503), the same as a read of a lost connection.
  get<R>(table: Table<R>, key: string): Promise<Stored<R> | null> {
    return this.closing ? refused() : this.inner.get(table, key);
  }

  range<R>(table: Table<R>, index: string, query: RangeQuery): Promise<Stored<R>[]> {
    return this.closing ? refused() : this.inner.range(table, index, query);
  }

  count(table: AnyTable, index: string, prefix: readonly KeyPart[]): Promise<number> {
    return this.closing ? refused() : this.inner.count(table, index, prefix);
  }

  /** A commit let in is waited for by `close`: it resolves, durable, or fails as it would have. */
  commit(changes: Changes): Promise<CommitOutcome> {
    return this.admit(() => this.inner.commit(changes));
  }

  /** Refuses new work, waits for the work let in, then closes the store under it. Idempotent. */
  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      if (this.running === 0) resolve();
      else this.idle = resolve;
    }).then(() => this.closeInner());
    return this.closing;
  }

  private admit<T>(work: () => Promise<T>): Promise<T> {
    if (this.closing) return refused();
    this.running += 1;
    let started: Promise<T>;
    try {
      started = work();
    } catch (error) {
      started = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return started.finally(() => {
      this.running -= 1;
      if (this.running === 0) this.idle?.();
    });
  }
}
