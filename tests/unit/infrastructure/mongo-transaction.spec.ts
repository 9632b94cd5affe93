import { expect } from 'chai';
import { type ClientSession, MongoErrorLabel, MongoServerError, MongoWriteConcernError } from 'mongodb';
import { StoreDeadlineExceeded, withDeadline } from '../../../src/infrastructure/mongo/mongo-deadline.js';
import { runTransaction } from '../../../src/infrastructure/mongo/mongo-transaction.js';

/** The part of a ClientSession the loop drives, as a working state machine whose commit fails as told. */
class FakeSession {
  state: 'none' | 'in_progress' | 'committed' | 'aborted' = 'none';
  commits = 0;
  aborts = 0;
  constructor(private readonly commitFailure: () => Error | null) {}
  startTransaction(): void {
    this.state = 'in_progress';
  }
  inTransaction(): boolean {
    return this.state === 'in_progress';
  }
  abortTransaction(): Promise<void> {
    this.aborts++;
    this.state = 'aborted';
    return Promise.resolve();
  }
  async commitTransaction(): Promise<void> {
    this.commits++;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const failure = this.commitFailure();
    if (failure) throw failure;
    this.state = 'committed';
  }
}

/** A commit whose majority acknowledgement timed out, labelled the way commitTransaction labels it (sessions.js). */
const unknownCommitResult = () => {
  const error = new MongoWriteConcernError({ ok: 1, writeConcernError: { code: 64, codeName: 'WriteConcernFailed', errmsg: 'waiting for replication timed out', errInfo: { wtimeout: true } } });
  error.addErrorLabel(MongoErrorLabel.UnknownTransactionCommitResult);
  return error;
};

const asSession = (fake: FakeSession) => fake as unknown as ClientSession;

describe('the bounded transaction loop (a working fake session, no server)', () => {
  it('retries a commit of unknown result only until the deadline, then stops retrying (the driver would go on for 120 s)', async () => {
    const session = new FakeSession(unknownCommitResult);
    const started = Date.now();
    const error = await withDeadline(100, (signal) => runTransaction(asSession(session), () => Promise.resolve('done'), {}, signal)).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(StoreDeadlineExceeded);
    expect(Date.now() - started).to.be.below(1_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const attempts = session.commits;
    expect(attempts).to.be.above(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(session.commits).to.equal(attempts);
  });

  it('re-runs the work after a TransientTransactionError, then commits and returns its result', async () => {
    const session = new FakeSession(() => null);
    let runs = 0;
    const work = () => {
      runs++;
      if (runs < 3) return Promise.reject(new MongoServerError({ ok: 0, errmsg: 'WriteConflict', code: 112, codeName: 'WriteConflict', errorLabels: ['TransientTransactionError'] }));
      return Promise.resolve('stored');
    };
    expect(await withDeadline(1_000, (signal) => runTransaction(asSession(session), work, {}, signal))).to.equal('stored');
    expect(runs).to.equal(3);
    expect(session.aborts).to.equal(2);
    expect(session.state).to.equal('committed');
  });

  it('aborts and rethrows an error the work throws for its own reasons, without retrying', async () => {
    const session = new FakeSession(() => null);
    const own = new Error('user not found');
    let runs = 0;
    const error = await withDeadline(1_000, (signal) =>
      runTransaction(asSession(session), () => {
        runs++;
        return Promise.reject(own);
      }, {}, signal),
    ).catch((e: unknown) => e);
    expect(error).to.equal(own);
    expect(runs).to.equal(1);
    expect(session.state).to.equal('aborted');
  });
});
