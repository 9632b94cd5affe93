import { rmSync } from 'node:fs';
import { expect } from 'chai';
import type { RecordedEvent } from '../../../src/application/ports/event-log.port.js';
import { SignInThrottle } from '../../../src/application/policies/sign-in-throttle.js';
import { TooManyAttempts } from '../../../src/domain/domain-error.js';
import { StoreEventLog } from '../../../src/infrastructure/storage/store-event-log.js';
import { LmdbStore } from '../../../src/infrastructure/lmdb/lmdb-store.js';
import { LmdbTables } from '../../../src/infrastructure/lmdb/lmdb-tables.js';
import { COUNTERS } from '../../../src/infrastructure/storage/commit-plan.js';
import { StoreAttemptLimits } from '../../../src/infrastructure/storage/store-attempt-limits.js';
import type { Store } from '../../../src/infrastructure/storage/store.js';
import { rejection } from '../../support/rejection.js';
import { tempDir } from '../../support/test-service.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const metadata = { requestId: null, clientIp: null, userAgent: null };
let counter = 0;
const failure = (email: string, msAgo: number): RecordedEvent =>
  ({ eventId: `f${(counter += 1)}`, type: 'SignInFailed', aggregateId: null, occurredAt: new Date(NOW.getTime() - msAgo), payload: { email, reason: 'unknown_email' }, metadata }) as unknown as RecordedEvent;

/** The LMDB store, counting the range reads and commits each throttle step makes. */
const counting = (inner: Store) => {
  const calls = { range: 0, commit: 0 };
  const store: Store = {
    get: (table, key) => inner.get(table, key),
    range: (table, index, query) => ((calls.range += 1), inner.range(table, index, query)),
    count: (table, index, prefix) => inner.count(table, index, prefix),
    commit: (changes) => ((calls.commit += 1), inner.commit(changes)),
  };
  return { store, calls };
};

describe('the sign-in throttle costs one write whatever the history or THROTTLE_MAX_FAILURES', () => {
  let dir: string;
  let lmdb: LmdbStore;
  beforeEach(() => {
    dir = tempDir('throttle-cost');
    lmdb = LmdbStore.open(dir);
  });
  afterEach(async () => {
    await lmdb.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('one commit and no range read per failure for a fresh address and for one with 1,200 failed sign-ins in its log, at maxFailures 5 and 1000', async () => {
    const log = new StoreEventLog(new LmdbTables(lmdb));
    for (let i = 0; i < 1_200; i += 100) await log.append(Array.from({ length: 100 }, (_, j) => failure('busy@example.com', (1_200 - i - j) * 100)));
    const { store, calls } = counting(new LmdbTables(lmdb));
    for (const maxFailures of [5, 1000]) {
      const throttle = new SignInThrottle({ limits: new StoreAttemptLimits(store), clock: { now: () => NOW } }, { maxFailures, windowSeconds: 3600 });
      for (const email of [`fresh-${maxFailures}@example.com`, `busy-${maxFailures}@example.com`]) {
        Object.assign(calls, { range: 0, commit: 0 });
        await throttle.check(email);
        await throttle.failed(email, [failure(email, 0)]);
        expect(calls, `${email} at ${maxFailures}`).to.deep.equal({ range: 0, commit: 1 });
      }
    }
  });

  it('refuses once maxFailures attempts are counted in the window, until a success clears them or the window passes', async () => {
    let now = NOW;
    const tables = new LmdbTables(lmdb);
    const throttle = new SignInThrottle({ limits: new StoreAttemptLimits(tables), clock: { now: () => now } }, { maxFailures: 3, windowSeconds: 60 });
    const fail = () => throttle.failed('ada@example.com', []);
    for (let i = 0; i < 3; i++) await fail();
    for (const refused of [await rejection(fail()), await rejection(throttle.check('ada@example.com'))]) {
      expect(refused).to.be.instanceOf(TooManyAttempts);
      expect((refused as TooManyAttempts).retryAfterSeconds).to.equal(60);
    }
    await throttle.succeeded('ada@example.com');
    expect(await tables.get(COUNTERS, 'sign-in:ada@example.com')).to.equal(null);
    for (let i = 0; i < 3; i++) await fail();
    now = new Date(NOW.getTime() + 60_000);
    await throttle.check('ada@example.com');
    await fail();
  });
});
