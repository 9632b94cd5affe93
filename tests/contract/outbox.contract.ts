import { expect } from 'chai';
import type { RecordedEvent } from '../../src/application/ports/event-log.port.js';
import type { PendingMail } from '../../src/application/ports/outbox.port.js';
import type { DomainEvent } from '../../src/domain/domain-event.js';
import { passwordResetRequested } from '../../src/domain/mail-events.js';
import { signInFailed } from '../../src/domain/user.js';
import { aRequestMetadata } from '../support/builders.js';
import { type StorageFactory, type StorageUnderTest, aUser } from './storage.contract.js';

const T0 = Date.parse('2026-06-01T12:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000);
const LEASE_MS = 30_000;
let counter = 0;
const uniqueId = (prefix: string) => `${prefix}-${process.pid}-${Date.now()}-${++counter}`;

const recorded = (events: ReadonlyArray<DomainEvent>): RecordedEvent[] =>
  events.map((event) => ({ ...event, eventId: uniqueId('evt'), metadata: aRequestMetadata() }) as RecordedEvent);

/** A reset request for an account: an event that asks for a mail. */
const aResetRequest = (seconds = 0): RecordedEvent =>
  recorded([passwordResetRequested(`${uniqueId('u')}@example.com`, uniqueId('uid'), 'binding-fingerprint', at(seconds))])[0] as RecordedEvent;

const idsOf = (pending: readonly PendingMail[]) => pending.map((mail) => mail.event.eventId).sort();

/**
 * Every Outbox adapter: an entry exists exactly for the committed events that ask for a mail, is leased to one
 * claimer at a time, retried after a failure no sooner than asked, and never handed out again once sent.
 */
export function outboxContract(adapter: string, makeStorage: StorageFactory): void {
  describe(`Outbox contract: ${adapter}`, () => {
    let storage: StorageUnderTest;
    beforeEach(async () => {
      storage = await makeStorage();
      // A shared store (MongoDB) may hold entries of earlier tests: send them, so each test sees its own only.
      for (;;) {
        const stale = await storage.outbox.claim(at(10_000_000), LEASE_MS, 100);
        if (stale.length === 0) break;
        await storage.outbox.markSent(stale.map((mail) => mail.event.eventId));
      }
    });
    afterEach(async () => storage.dispose());

    it('creates an entry, in the same write, for each committed event that asks for a mail to an account, and for no other', async () => {
      const user = aUser();
      user.requestEmailVerification('binding-fingerprint', at(0));
      const signUpEvents = recorded(user.pullEvents());
      await storage.users.add(user, signUpEvents);
      const reset = aResetRequest(1);
      const unknownAddress = recorded([passwordResetRequested(`${uniqueId('nobody')}@example.com`, null, null, at(2))]);
      const failure = recorded([signInFailed(`${uniqueId('x')}@example.com`, 'unknown_email', null, at(3))]);
      await storage.events.append([reset, ...unknownAddress, ...failure]);

      const due = await storage.outbox.claim(at(5), LEASE_MS, 10);
      const verification = signUpEvents.find((event) => event.type === 'EmailVerificationRequested');
      expect(idsOf(due)).to.deep.equal([verification?.eventId, reset.eventId].sort());
      const claimedReset = due.find((mail) => mail.event.eventId === reset.eventId);
      expect(claimedReset?.attempts).to.equal(0);
      expect(claimedReset?.event.payload).to.deep.equal(reset.payload);
      expect(claimedReset?.event.aggregateId).to.equal(reset.aggregateId);
    });

    it('creates one entry for an event appended twice (appends are idempotent by event id)', async () => {
      const reset = aResetRequest();
      await storage.events.append([reset]);
      await storage.events.append([reset]);
      expect(idsOf(await storage.outbox.claim(at(1), LEASE_MS, 10))).to.deep.equal([reset.eventId]);
    });

    it('leases a claimed entry: nobody else gets it until the lease ends, then it is due again with its attempts', async () => {
      const reset = aResetRequest();
      await storage.events.append([reset]);
      expect(idsOf(await storage.outbox.claim(at(1), LEASE_MS, 10))).to.deep.equal([reset.eventId]);
      expect(await storage.outbox.claim(at(2), LEASE_MS, 10)).to.deep.equal([]);
      expect(await storage.outbox.claim(at(1 + LEASE_MS / 1000 - 1), LEASE_MS, 10)).to.deep.equal([]);
      const again = await storage.outbox.claim(at(1 + LEASE_MS / 1000), LEASE_MS, 10);
      expect(idsOf(again)).to.deep.equal([reset.eventId]);
      expect(again[0]?.attempts).to.equal(0);
    });

    it('after a failure, counts the attempt and releases the lease, due again at the time asked and not before', async () => {
      const reset = aResetRequest();
      await storage.events.append([reset]);
      await storage.outbox.claim(at(1), LEASE_MS, 10);
      await storage.outbox.markFailed(reset.eventId, at(5), '451 try again later');
      expect(await storage.outbox.claim(at(4), LEASE_MS, 10)).to.deep.equal([]);
      const retry = await storage.outbox.claim(at(5), LEASE_MS, 10);
      expect(idsOf(retry)).to.deep.equal([reset.eventId]);
      expect(retry[0]?.attempts).to.equal(1);
      await storage.outbox.markFailed(reset.eventId, at(9), '451 try again later');
      expect((await storage.outbox.claim(at(9), LEASE_MS, 10))[0]?.attempts).to.equal(2);
    });

    it('puts an entry back without counting an attempt when the relay failed, due again at the time asked; a dead letter stays one', async () => {
      const [reset, doomed] = [aResetRequest(), aResetRequest()];
      await storage.events.append([reset, doomed]);
      await storage.outbox.claim(at(1), LEASE_MS, 10);
      await storage.outbox.postpone(reset.eventId, at(5), '535 authentication failed');
      expect(idsOf(await storage.outbox.claim(at(4), LEASE_MS, 10))).to.deep.equal([]);
      const retry = await storage.outbox.claim(at(5), LEASE_MS, 10);
      expect(idsOf(retry)).to.include(reset.eventId);
      expect(retry.find((pending) => pending.event.eventId === reset.eventId)?.attempts).to.equal(0);
      await storage.outbox.markDead(doomed.eventId, at(6), '550 no such mailbox');
      await storage.outbox.postpone(doomed.eventId, at(7), '535 authentication failed');
      expect(idsOf(await storage.outbox.claim(at(100_000), LEASE_MS, 10))).to.not.include(doomed.eventId);
    });

    it('never hands out a sent entry again, even after its lease; marking sent twice, or an unknown id, is harmless', async () => {
      const [first, second] = [aResetRequest(), aResetRequest()];
      await storage.events.append([first, second]);
      await storage.outbox.claim(at(1), LEASE_MS, 10);
      await storage.outbox.markSent([first?.eventId ?? '']);
      await storage.outbox.markSent([first?.eventId ?? '', uniqueId('never-recorded')]);
      await storage.outbox.markSent([]);
      expect(idsOf(await storage.outbox.claim(at(100_000), LEASE_MS, 10))).to.deep.equal([second?.eventId]);
    });

    it('hands out at most `limit` entries per claim, and simultaneous claimers get disjoint sets that cover every entry', async () => {
      const resets = Array.from({ length: 12 }, (_, i) => aResetRequest(i));
      await storage.events.append(resets);
      expect(await storage.outbox.claim(at(20), LEASE_MS, 5)).to.have.length(5);
      const claims = await Promise.all(Array.from({ length: 4 }, () => storage.outbox.claim(at(20 + LEASE_MS / 1000), LEASE_MS, 5)));
      const all = claims.flatMap(idsOf);
      expect(new Set(all).size, 'no entry is leased twice').to.equal(all.length);
      expect(all.sort()).to.deep.equal(resets.map((event) => event.eventId).sort());
    });

    it('dead-letters an entry: never claimed again, kept with its attempts, time and last error for an operator, not pending', async () => {
      const [doomed, other] = [aResetRequest(), aResetRequest()];
      await storage.events.append([doomed, other]);
      const pendingBefore = await storage.outbox.pendingCount();
      await storage.outbox.claim(at(1), LEASE_MS, 10);
      await storage.outbox.markFailed(doomed.eventId, at(2), '451 try again later');
      expect(idsOf(await storage.outbox.claim(at(2), LEASE_MS, 10))).to.deep.equal([doomed.eventId]);
      await storage.outbox.markDead(doomed.eventId, at(3), '550 no such mailbox');
      await storage.outbox.markDead(doomed.eventId, at(4), 'marked twice');
      await storage.outbox.markDead(uniqueId('never-recorded'), at(4), 'unknown');
      expect(idsOf(await storage.outbox.claim(at(100_000), LEASE_MS, 10))).to.deep.equal([other.eventId]);
      const dead = (await storage.outbox.deadLetters(100)).filter((letter) => letter.eventId === doomed.eventId);
      expect(dead).to.deep.equal([{ eventId: doomed.eventId, attempts: 2, failedAt: at(3), lastError: '550 no such mailbox' }]);
      expect(await storage.outbox.pendingCount()).to.equal(pendingBefore - 1);
    });
  });
}
