import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { eventsAbout } from '../../support/events-about.js';
import type { RecordedEvent } from '../../../src/application/ports/event-log.port.js';
import { RequestPasswordResetHandler } from '../../../src/application/use-cases/request-password-reset/request-password-reset.handler.js';
import { StoreEventLog } from '../../../src/infrastructure/storage/store-event-log.js';
import { EVENTS } from '../../../src/infrastructure/storage/event-tables.js';
import type { Store } from '../../../src/infrastructure/storage/store.js';
import { LmdbStore } from '../../../src/infrastructure/lmdb/lmdb-store.js';
import { LmdbTables } from '../../../src/infrastructure/lmdb/lmdb-tables.js';
import { StoreUserRepository } from '../../../src/infrastructure/storage/store-user.repository.js';
import { StoreAttemptLimits } from '../../../src/infrastructure/storage/store-attempt-limits.js';
import { HmacOneTimeTokens } from '../../../src/infrastructure/security/hmac-one-time-tokens.js';
import { SequentialIds } from '../../support/fakes.js';
import { tempDir } from '../../support/test-service.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const metadata = { requestId: null, clientIp: null, userAgent: null };
let counter = 0;
const failure = (email: string, msAgo: number): RecordedEvent =>
  ({ eventId: `f${(counter += 1)}`, type: 'SignInFailed', aggregateId: null, occurredAt: new Date(NOW.getTime() - msAgo), payload: { email, reason: 'unknown_email' }, metadata }) as unknown as RecordedEvent;

describe('a password-reset request costs the same whatever the address has in the event log (finding 4 of issue 23)', () => {
  let dir: string;
  let store: LmdbStore;
  beforeEach(() => {
    dir = tempDir('reset-cost');
    store = LmdbStore.open(dir);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads no stored event for a fresh address nor for one with 5,000 events (its commit reads the new event\'s id only), and still caps requests per address', async () => {
    const tables = new LmdbTables(store);
    const events = new StoreEventLog(tables);
    for (let i = 0; i < 5_000; i += 500) await events.append(Array.from({ length: 500 }, (_, j) => failure('busy@example.com', (5_000 - i - j) * 10)));
    let eventReads = 0;
    const counting: Store = {
      get: (table, key) => ((eventReads += table === EVENTS ? 1 : 0), tables.get(table, key)),
      range: (table, index, query) => ((eventReads += table === EVENTS ? 1 : 0), tables.range(table, index, query)),
      count: (table, index, prefix) => tables.count(table, index, prefix),
      commit: (changes) => tables.commit(changes),
    };
    const handler = new RequestPasswordResetHandler(
      { users: new StoreUserRepository(counting), limits: new StoreAttemptLimits(counting), oneTimeTokens: new HmacOneTimeTokens(Buffer.alloc(32, 9)), clock: { now: () => NOW }, ids: new SequentialIds() },
      { resetTtlSeconds: 1800, verificationTtlSeconds: 86_400, publicAppUrl: 'https://app.example', requireVerifiedEmail: false, resetPerAddress: { max: 3, windowSeconds: 3600 }, verificationPerAddress: { max: 3, windowSeconds: 3600 } },
    );

    for (const email of ['fresh@example.com', 'busy@example.com']) {
      eventReads = 0;
      await handler.execute({ email, metadata });
      expect(eventReads, email).to.equal(0);
    }
    for (let i = 0; i < 5; i++) await handler.execute({ email: 'busy@example.com', metadata });
    const recorded = await eventsAbout(tables, { email: 'busy@example.com', types: ['PasswordResetRequested'], since: new Date(0), limit: 10 });
    expect(recorded, 'three in the window, then nothing recorded').to.have.length(3);
  });
});
