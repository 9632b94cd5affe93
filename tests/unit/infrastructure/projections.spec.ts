import { expect } from 'chai';
import type { RecordedEvent } from '../../../src/application/ports/event-log.port.js';
import { PROJECTIONS, type ProjectionTable, type ProjectionTables } from '../../../src/infrastructure/storage/projections.js';
import { openStorage } from '../../../src/infrastructure/memory/memory-storage.js';
import { aRequestMetadata } from '../../support/builders.js';

const noTable: ProjectionTable<never, void> = { insert: () => undefined, update: () => undefined, remove: () => undefined };
// @ts-expect-error a store whose tables miss a projection (here, the outbox) does not compile
export const incomplete: ProjectionTables<void> = {};
export const complete: ProjectionTables<void> = { outbox: noTable };

const at = new Date('2026-06-01T12:00:00Z');
const event = (type: string, payload: Record<string, unknown>, aggregateId: string | null = 'user-1'): RecordedEvent =>
  ({ eventId: `${type}-1`, type, aggregateId, occurredAt: at, payload: { email: 'ada@example.com', ...payload }, metadata: aRequestMetadata() }) as unknown as RecordedEvent;

describe('The event projections', () => {
  it('outbox: a new entry for a mail to an account, keyed by the event id; nothing for a reset asked for an unknown address', () => {
    expect(PROJECTIONS.outbox.changeOf(event('EmailVerificationRequested', { binding: 'b' }))).to.deep.equal({
      key: 'EmailVerificationRequested-1',
      change: { kind: 'insert', row: { eventId: 'EmailVerificationRequested-1', attempts: 0, nextAttemptAt: 0, leaseUntil: 0 } },
    });
    expect(PROJECTIONS.outbox.changeOf(event('PasswordResetRequested', { binding: null }, null))).to.equal(null);
    expect(PROJECTIONS.outbox.changeOf(event('UserSignedIn', {}))).to.equal(null);
  });

  it('are applied by the store in the write that appends the event, and only once per event id', async () => {
    const storage = await openStorage();
    const mail = event('PasswordResetRequested', { binding: 'b' });
    await storage.events.append([mail]);
    await storage.events.append([mail]);
    expect((await storage.outbox.claim(at, 1000, 10)).map((pending) => pending.event.eventId)).to.deep.equal([mail.eventId]);
    await storage.close();
  });
});
