import { rmSync } from 'node:fs';
import { expect } from 'chai';
import type { RecordedEvent } from '../../../src/application/ports/event-log.port.js';
import { passwordResetRequested } from '../../../src/domain/mail-events.js';
import { LmdbTables } from '../../../src/infrastructure/lmdb/lmdb-tables.js';
import { OUTBOX } from '../../../src/infrastructure/storage/event-tables.js';
import { StoreEventLog } from '../../../src/infrastructure/storage/store-event-log.js';
import { StoreOutbox } from '../../../src/infrastructure/storage/store-outbox.js';
import { ClosingStore, type Store } from '../../../src/infrastructure/storage/store.js';
import { CORE_SCHEMA } from '../../../src/infrastructure/storage/ownership.js';
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

/** The store under the outbox, counting the outbox entries it hands out (by key or by walking an index). */
function counting(inner: Store): { store: Store; reads: number } {
  const counted = {
    reads: 0,
    store: {
      get: async (table, key) => {
        const found = await inner.get(table, key);
        if (table === OUTBOX && found) counted.reads += 1;
        return found;
      },
      range: async (table, index, query) => {
        const found = await inner.range(table, index, query);
        if (table === OUTBOX) counted.reads += found.length;
        return found;
      },
      count: (table, index, prefix) => inner.count(table, index, prefix),
      commit: (changes) => inner.commit(changes),
    } satisfies Store,
  };
  return counted;
}

/** The store as the service's ports see it: each commit that appends events runs the schema's projections (the outbox's). */
const projecting = (tables: Store): Store => new ClosingStore(tables, () => Promise.resolve(), CORE_SCHEMA.projections);

describe('an outbox claim reads only the due entries, through the due index (finding 5 of issue 23)', () => {
  let dir: string;
  let store: LmdbStore;
  let tables: LmdbTables;
  beforeEach(() => {
    dir = tempDir('outbox-claim-cost');
    store = LmdbStore.open(dir);
    tables = new LmdbTables(store);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('10,000 waiting entries (leased, backing off, dead) cost nothing: a claim of the 3 due ones reads 3 entries', async () => {
    const log = new StoreEventLog(projecting(tables));
    const counted = counting(tables);
    const outbox = new StoreOutbox(counted.store);
    for (let i = 0; i < 10; i++) await log.append(Array.from({ length: 1_000 }, resetRequest));
    const leased = await outbox.claim(new Date(NOW), HOUR, 10_000);
    expect(leased).to.have.length(10_000);
    await outbox.markFailed(leased[0]?.event.eventId ?? '', new Date(NOW + HOUR), '451 try again later');
    await outbox.markDead(leased[1]?.event.eventId ?? '', new Date(NOW), '550 no such mailbox');
    const due = [resetRequest(), resetRequest(), resetRequest()];
    await log.append(due);

    counted.reads = 0;
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
    const log = new StoreEventLog(projecting(tables));
    const outbox = new StoreOutbox(tables);
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

  it('gives each entry to one of two simultaneous dispatchers', async () => {
    const log = new StoreEventLog(projecting(tables));
    const mails = Array.from({ length: 30 }, resetRequest);
    await log.append(mails);
    const [first, second] = await Promise.all([new StoreOutbox(tables).claim(new Date(NOW), HOUR, 30), new StoreOutbox(tables).claim(new Date(NOW), HOUR, 30)]);
    const ids = [...(first ?? []), ...(second ?? [])].map((mail) => mail.event.eventId);
    expect(new Set(ids).size).to.equal(ids.length);
    expect(ids.sort()).to.deep.equal(mails.map((mail) => mail.eventId).sort());
  });
});
