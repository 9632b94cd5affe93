import { type ClientSession, MongoError, MongoErrorLabel, type TransactionOptions } from 'mongodb';

const MAX_TIME_MS_EXPIRED = 50;

/** The spec's jittered backoff before attempt n of the whole transaction: up to min(5 ms * 1.5^n, 500 ms). */
const backoff = (attempt: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.random() * Math.min(5 * 1.5 ** attempt, 500)));

const labelled = (error: unknown, label: MongoErrorLabel): error is MongoError => error instanceof MongoError && error.hasErrorLabel(label);

/**
 * The driver's convenient-transaction loop (`ClientSession.withTransaction`, transactions spec), bounded by `signal`
 * instead of the driver's fixed 120 s: `work` is re-run on TransientTransactionError and the commit retried on
 * UnknownTransactionCommitResult only while the signal has not aborted; then the last error is thrown as it is.
 * Never catches an error `work` throws for its own reasons (those abort the transaction and propagate).
 */
export async function runTransaction<T>(session: ClientSession, work: (session: ClientSession) => Promise<T>, options: TransactionOptions, signal: AbortSignal): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    if (attempt > 0) await backoff(attempt);
    session.startTransaction(options);
    let result: T;
    try {
      result = await work(session);
    } catch (error) {
      if (session.inTransaction()) await session.abortTransaction();
      if (labelled(error, MongoErrorLabel.TransientTransactionError) && !signal.aborted) continue;
      throw error;
    }
    if (!session.inTransaction()) return result;
    const committed = await commit(session, signal);
    if (committed) return result;
  }
}

/** Commits; true when done, false when the whole transaction must run again (TransientTransactionError). */
async function commit(session: ClientSession, signal: AbortSignal): Promise<boolean> {
  for (;;) {
    try {
      await session.commitTransaction();
      return true;
    } catch (error) {
      const unknownResult = labelled(error, MongoErrorLabel.UnknownTransactionCommitResult) && error.code !== MAX_TIME_MS_EXPIRED;
      if (unknownResult && !signal.aborted) continue;
      if (labelled(error, MongoErrorLabel.TransientTransactionError) && !signal.aborted) return false;
      throw error;
    }
  }
}
