import { expect } from 'chai';
import type { RecordedEvent } from '../../../src/application/ports/event-log.port.js';
import { openStorage } from '../../../src/infrastructure/memory/memory-storage.js';
import { OUTBOX } from '../../../src/infrastructure/storage/event-tables.js';
import { DIRECTORY } from '../../../src/infrastructure/storage/directory-tables.js';
import { PROJECTIONS } from '../../../src/infrastructure/storage/projections.js';
import { schemaOf } from '../../../src/infrastructure/storage/ownership.js';
import type { EventProjection, Table } from '../../../src/infrastructure/storage/store.js';
import { aRequestMetadata } from '../../support/builders.js';

const at = new Date('2026-06-01T12:00:00Z');
const event = (type: string, payload: Record<string, unknown>, aggregateId: string | null = 'user-1'): RecordedEvent =>
  ({ eventId: `${type}-1`, type, aggregateId, occurredAt: at, payload: { email: 'ada@example.com', ...payload }, metadata: aRequestMetadata() }) as unknown as RecordedEvent;

describe('The event projections', () => {
  const outbox = PROJECTIONS.find((projection) => projection.table === OUTBOX);

  it('outbox: a new entry for a mail to an account, keyed by the event id, at its place in the log; none for a reset asked for an unknown address', () => {
    const change = outbox?.changeOf(event('EmailVerificationRequested', { binding: 'b' }), 'b01');
    expect(change?.key).to.equal('EmailVerificationRequested-1');
    expect(change?.next(null)).to.deep.equal({ eventId: 'EmailVerificationRequested-1', attempts: 0, nextAttemptAt: 0, leaseUntil: 0, seq: 'b01' });
    expect(outbox?.changeOf(event('PasswordResetRequested', { binding: null }, null), 'b02')).to.equal(null);
    expect(outbox?.changeOf(event('UserSignedIn', {}), 'b03')).to.equal(null);
  });

  it('write nothing when a projection gives the current record back: the directory entry stays at version 0 through sign-ins', async () => {
    const storage = await openStorage();
    await storage.events.append([{ ...event('UserRegistered', {}), eventId: 'e1' }]);
    for (let i = 2; i < 6; i++) await storage.events.append([{ ...event('UserSignedIn', {}), eventId: `e${i}` }]);
    expect(await storage.store.get(DIRECTORY, 'user-1')).to.deep.include({ version: 0 });
    await storage.close();
  });

  it('are applied by the store in the commit that appends the event, and only once per event id', async () => {
    const storage = await openStorage();
    const mail = event('PasswordResetRequested', { binding: 'b' });
    await storage.events.append([mail]);
    await storage.events.append([mail]);
    expect((await storage.outbox.claim(at, 1000, 10)).map((pending) => pending.event.eventId)).to.deep.equal([mail.eventId]);
    expect(await storage.outbox.pendingCount()).to.equal(1);
    await storage.close();
  });

  it("run only for the event types they read (`on`), from the schema the store was opened with: a capability's, and none the engine imports", async () => {
    const seen: string[] = [];
    const NOTES: Table<{ readonly count: number }> = { name: 'notes', indexes: {}, owner: { none: 'a test table' } };
    const notes: EventProjection<{ readonly count: number }> = {
      table: NOTES,
      on: ['NoteTaken'],
      changeOf: (recorded) => {
        seen.push(recorded.type);
        return { key: 'n', next: (current) => ({ count: (current?.count ?? 0) + 1 }) };
      },
    };
    const storage = await openStorage(undefined, undefined, schemaOf([{ tables: [NOTES], projections: [notes as EventProjection<unknown>] }]));
    await storage.events.append([{ ...event('UserSignedIn', {}), eventId: 'e1' }, { ...event('NoteTaken', {}), eventId: 'e2' }, { ...event('NoteTaken', {}), eventId: 'e3' }]);
    expect(seen.filter((type) => type !== 'NoteTaken'), 'never called for another type').to.deep.equal([]);
    expect((await storage.store.get(NOTES, 'n'))?.value).to.deep.equal({ count: 2 });
    const without = await openStorage();
    await without.events.append([{ ...event('NoteTaken', {}), eventId: 'e4' }]);
    expect(await without.store.get(NOTES, 'n'), "a store opened without the capability's schema runs none of its projections").to.equal(null);
    await Promise.all([storage.close(), without.close()]);
  });
});

