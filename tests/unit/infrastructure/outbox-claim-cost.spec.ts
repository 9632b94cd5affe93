import { rmSync } from 'node:fs';
import { expect } from 'chai';
import type { RecordedEvent } from '../../../src/application/ports/event-log.port.js';
import { passwordResetRequested } from '../../../src/domain/mail-events.js';
import { LmdbEventLog } from '../../../src/infrastructure/lmdb/lmdb-event-log.js';
import { LmdbOutbox } from '../../../src/infrastructure/lmdb/lmdb-outbox.js';
import { LmdbStore } from '../../../src/infrastructure/lmdb/lmdb-store.js';
import { tempDir } from '../../support/test-service.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const HOUR = 3_600_000;
const metadata = { requestId: null, clientIp: null, userAgent: null };
let counter = 0;
const resetRequest = (): RecordedEvent => {
  counter += 1;
  return { ...passwordResetRequested(`u${counter}@example.com`, `user-${counter}`, 'binding', new Date(NOW)), eventId: `r${counter}`, metadata };
};

/** Counts the outbox entries read from the store (by key or by walking it). */
function countReads(store: LmdbStore): { reads: number } {
  const counted = { reads: 0 };
  const db = store.outbox;
  const get = db.get.bind(db);
  const getRange = db.getRange.bind(db);
  db.get = (key) => {
    counted.reads += 1;
    return get(key);
  };
  db.getRange = (options) =>
    getRange(options).map((entry) => {
      counted.reads += 1;
      return entry;
    });
  return counted;
}

describe('an outbox claim reads only the due entries, through the due index (finding 5 of issue 23)', () => {
  let dir: string;
  let store: LmdbStore;
  beforeEach(() => {
    dir = tempDir('outbox-claim-cost');
    store = LmdbStore.open(dir);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('10,000 waiting entries (leased, backing off, dead) cost nothing: a claim of the 3 due ones reads 3 entries', async () => {
    const log = new LmdbEventLog(store);
    const outbox = new LmdbOutbox(store);
    for (let i = 0; i < 10; i++) await log.append(Array.from({ length: 1_000 }, resetRequest));
    const leased = await outbox.claim(new Date(NOW), HOUR, 10_000);
    expect(leased).to.have.length(10_000);
    await outbox.markFailed(leased[0]?.event.eventId ?? '', new Date(NOW + HOUR), '451 try again later');
    await outbox.markDead(leased[1]?.event.eventId ?? '', new Date(NOW), '550 no such mailbox');
    const due = [resetRequest(), resetRequest(), resetRequest()];
    await log.append(due);

    const counted = countReads(store);
    const claimed = await outbox.claim(new Date(NOW + 1_000), 10_000, 20);

    expect(claimed.map((mail) => mail.event.eventId)).to.deep.equal(due.map((event) => event.eventId));
    expect(counted.reads, 'entries read by one claim').to.be.at.most(3);
    counted.reads = 0;
    expect(await outbox.claim(new Date(NOW + 2_000), 10_000, 20)).to.deep.equal([]);
    expect(counted.reads, 'a claim with nothing due reads nothing').to.equal(0);
    expect(await outbox.pendingCount()).to.equal(10_002);
    expect(counted.reads, 'the pending count reads no entry').to.equal(0);
  });

  it('an entry whose lease ran out, or whose retry time came, is due again through the index', async () => {
    const log = new LmdbEventLog(store);
    const outbox = new LmdbOutbox(store);
    const [leased, failing] = [resetRequest(), resetRequest()];
    await log.append([leased, failing]);
    await outbox.claim(new Date(NOW), 10_000, 10);
    await outbox.markFailed(failing.eventId, new Date(NOW + 20_000), '451 try again later');
    expect(await outbox.claim(new Date(NOW + 9_999), 10_000, 10)).to.deep.equal([]);
    expect((await outbox.claim(new Date(NOW + 10_000), HOUR, 10)).map((mail) => mail.event.eventId)).to.deep.equal([leased.eventId]);
    expect((await outbox.claim(new Date(NOW + 20_000), 10_000, 10)).map((mail) => [mail.event.eventId, mail.attempts])).to.deep.equal([[failing.eventId, 1]]);
    await outbox.markSent([failing.eventId]);
    expect(await outbox.claim(new Date(NOW + 2 * HOUR), 10_000, 10)).to.have.length(1);
  });

  it('indexes, when opened, the entries of an environment written before the due index', async () => {
    const log = new LmdbEventLog(store);
    const [waiting, dead] = [resetRequest(), resetRequest()];
    await log.append([waiting, dead]);
    const seqOf = (event: RecordedEvent) => store.eventSeqById.get(event.eventId) ?? -1;
    await store.transaction(() => {
      for (const key of [...store.outboxDue.getKeys()]) void store.outboxDue.remove(key);
      void store.outbox.put(seqOf(dead), { eventId: dead.eventId, attempts: 8, nextAttemptAt: 0, leaseUntil: 0, deadAt: NOW, lastError: 'x' });
    });
    const outbox = new LmdbOutbox(store);
    expect(await outbox.claim(new Date(NOW), 10_000, 10), 'not indexed yet').to.deep.equal([]);

    await store.migrateOutboxIndex();
    await store.migrateOutboxIndex();

    expect((await outbox.claim(new Date(NOW), 10_000, 10)).map((mail) => mail.event.eventId)).to.deep.equal([waiting.eventId]);
    expect(await outbox.pendingCount()).to.equal(1);
  });
});
