import { rmSync } from 'node:fs';
import { expect } from 'chai';
import type { EventLog, RecordedEvent } from '../../../src/application/ports/event-log.port.js';
import { SignInThrottle } from '../../../src/application/policies/sign-in-throttle.js';
import { TooManyAttempts } from '../../../src/domain/domain-error.js';
import { LmdbEventLog } from '../../../src/infrastructure/lmdb/lmdb-event-log.js';
import { LmdbStore } from '../../../src/infrastructure/lmdb/lmdb-store.js';
import { MAX_TRACKED_FAILURES } from '../../../src/infrastructure/storage/sign-in-failures.js';
import { tempDir } from '../../support/test-service.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const metadata = { requestId: null, clientIp: null, userAgent: null };
let counter = 0;
const failure = (email: string, msAgo: number): RecordedEvent =>
  ({ eventId: `f${(counter += 1)}`, type: 'SignInFailed', aggregateId: null, occurredAt: new Date(NOW.getTime() - msAgo), payload: { email, reason: 'unknown_email' }, metadata }) as unknown as RecordedEvent;

/** The LMDB event log, counting the records and events each throttle check reads. */
class CountingLog {
  reads = 0;
  readonly log: EventLog;
  constructor(inner: LmdbEventLog) {
    this.log = {
      append: (events) => inner.append(events),
      findByEmail: async (query) => {
        const found = await inner.findByEmail(query);
        this.reads += Math.max(1, found.length);
        return found;
      },
      findByAggregate: (id, page) => inner.findByAggregate(id, page),
      recentSignInFailures: async (email) => {
        this.reads += 1;
        return inner.recentSignInFailures(email);
      },
      recentMailRequests: (purpose, email) => inner.recentMailRequests(purpose, email),
    };
  }
}

describe('the sign-in throttle costs the same whatever the history or THROTTLE_MAX_FAILURES', () => {
  let dir: string;
  let store: LmdbStore;
  beforeEach(() => {
    dir = tempDir('throttle-cost');
    store = LmdbStore.open(dir);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('one record read for a fresh address and for one with 1,200 failures, at maxFailures 5 and 1000', async () => {
    const inner = new LmdbEventLog(store);
    for (let i = 0; i < 1_200; i += 100) await inner.append(Array.from({ length: 100 }, (_, j) => failure('busy@example.com', (1_200 - i - j) * 100)));
    const counting = new CountingLog(inner);
    for (const maxFailures of [5, 1000]) {
      const throttle = new SignInThrottle({ events: counting.log, clock: { now: () => NOW } }, { maxFailures, windowSeconds: 3600 });
      for (const email of ['fresh@example.com', 'busy@example.com']) {
        counting.reads = 0;
        await throttle.check(email).catch((error: unknown) => expect(error).to.be.instanceOf(TooManyAttempts));
        expect(counting.reads, `${email} at ${maxFailures}`).to.equal(1);
      }
      const refused = await throttle.check('busy@example.com').then(() => null, (error: unknown) => error);
      expect(refused, `busy@example.com is throttled at ${maxFailures}`).to.be.instanceOf(TooManyAttempts);
    }
    expect(await inner.recentSignInFailures('busy@example.com')).to.have.length(MAX_TRACKED_FAILURES);
  });

  it('a successful sign-in clears the record; failures older than 24 h are dropped from it', async () => {
    const log = new LmdbEventLog(store);
    await log.append([failure('ada@example.com', 25 * 3600 * 1000), failure('ada@example.com', 1000)]);
    expect((await log.recentSignInFailures('ada@example.com')).map((at) => at.getTime())).to.deep.equal([NOW.getTime() - 1000]);
    await log.append([{ eventId: 'ok', type: 'UserSignedIn', aggregateId: 'u1', occurredAt: NOW, payload: { email: 'ada@example.com' }, metadata } as unknown as RecordedEvent]);
    expect(await log.recentSignInFailures('ada@example.com')).to.deep.equal([]);
  });
});
