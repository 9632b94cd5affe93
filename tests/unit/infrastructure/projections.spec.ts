import { expect } from 'chai';
import type { RecordedEvent } from '../../../src/application/ports/event-log.port.js';
import { PROJECTIONS, type ProjectionTable, type ProjectionTables } from '../../../src/infrastructure/storage/projections.js';
import { MAX_TRACKED_AGE_MS, MAX_TRACKED_FAILURES } from '../../../src/infrastructure/storage/sign-in-failures.js';
import { openStorage } from '../../../src/infrastructure/memory/memory-storage.js';
import { aRequestMetadata } from '../../support/builders.js';

const noTable: ProjectionTable<never, void> = { insert: () => undefined, update: () => undefined, remove: () => undefined };
// @ts-expect-error a store whose tables miss a projection (here, all but the outbox) does not compile
export const incomplete: ProjectionTables<void> = { outbox: noTable };

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

  it('sign-in failures: a failure is added newest first (at most 1000, none older than 24 h); a success removes the record', () => {
    const failed = PROJECTIONS.signInFailures.changeOf(event('SignInFailed', { reason: 'wrong_password' }));
    expect(failed?.key).to.equal('ada@example.com');
    if (failed?.change.kind !== 'update') throw new Error('a failure updates the record');
    const old = at.getTime() - MAX_TRACKED_AGE_MS;
    expect(failed.change.next(undefined)).to.deep.equal([at.getTime()]);
    expect(failed.change.next([at.getTime() - 1, old])).to.deep.equal([at.getTime(), at.getTime() - 1]);
    expect(failed.change.next(Array.from({ length: 2000 }, (_, i) => at.getTime() - i))).to.have.length(MAX_TRACKED_FAILURES);
    expect(PROJECTIONS.signInFailures.changeOf(event('UserSignedIn', {}))).to.deep.equal({ key: 'ada@example.com', change: { kind: 'remove' } });
    expect(PROJECTIONS.signInFailures.changeOf(event('UserRegistered', {}))).to.equal(null);
  });

  it('are applied by the store in the write that appends the event, and only once per event id', async () => {
    const storage = await openStorage();
    const mail = event('PasswordResetRequested', { binding: 'b' });
    const failure = event('SignInFailed', { reason: 'unknown_email' }, null);
    await storage.events.append([mail, failure]);
    await storage.events.append([mail, failure]);
    expect(await storage.events.recentSignInFailures('ada@example.com')).to.deep.equal([at]);
    expect((await storage.outbox.claim(at, 1000, 10)).map((pending) => pending.event.eventId)).to.deep.equal([mail.eventId]);
    await storage.close();
  });
});
