import { rmSync } from 'node:fs';
import { expect } from 'chai';
import type { RecordedEvent } from '../../../src/application/ports/event-log.port.js';
import { EventRetentionJob } from '../../../src/infrastructure/jobs/event-retention.job.js';
import type { EventLog } from '../../../src/application/ports/event-log.port.js';
import { openStorage } from '../../../src/infrastructure/lmdb/lmdb-storage.js';
import { StoreEventPruner } from '../../../src/infrastructure/storage/store-event-pruner.js';
import { EVENTS, type EventRecord, appendedAs, retentionOfEvent } from '../../../src/infrastructure/storage/event-tables.js';
import type { Storage } from '../../../src/infrastructure/storage/storage.js';
import { type EventPruner, type EventType, RETENTION, type Retention, retentionOf } from '../../../src/infrastructure/storage/retention.js';
import { CAPABILITIES } from '../../../src/capabilities/index.js';
import { declarationOf } from '../../../src/application/ports/event-declarations.js';
import { tempDir } from '../../support/test-service.js';
import { eventsAbout } from '../../support/events-about.js';
import type { Store } from '../../../src/infrastructure/storage/store.js';

const DAY = 86_400_000;
const NOW = new Date('2026-06-01T00:00:00Z');
const metadata = { requestId: null, clientIp: null, userAgent: null };
let counter = 0;

const event = (type: string, daysAgo: number, email: string, extra: Record<string, unknown> = {}): RecordedEvent =>
  ({
    eventId: `e${(counter += 1)}`,
    type,
    aggregateId: type === 'SignInFailed' ? null : `user-${email}`,
    occurredAt: new Date(NOW.getTime() - daysAgo * DAY),
    payload: { email, ...(type === 'SignInFailed' ? { reason: 'unknown_email' } : {}), ...extra },
    metadata,
  }) as unknown as RecordedEvent;

const all = (store: Store, email: string, types: string[]) => eventsAbout(store, { email, types: types as never, since: new Date(0), limit: 10_000 });

// @ts-expect-error a retention map that leaves an event type unclassified (here, all but one) does not compile
export const unclassified: { readonly [T in EventType]: Retention } = { UserRegistered: 'keep' };

describe('the retention of each event type', () => {
  it('prunes sign-ins (with a passkey too), failures and session starts; mail requests once sent; keeps everything else', () => {
    const declared = CAPABILITIES.flatMap((capability) => Object.keys(capability.events).map((type) => [type, declarationOf(capability.events, type).retention] as const));
    const byRetention = (retention: Retention) => [...Object.entries(RETENTION), ...declared].filter(([, r]) => r === retention).map(([type]) => type).sort();
    expect(byRetention('prune')).to.deep.equal(['SessionStarted', 'SignInFailed', 'SignedInWithPasskey', 'SignedInWithProvider', 'UserSignedIn']);
    expect(byRetention('prune-after-sent')).to.deep.equal(['EmailChangeRequested', 'EmailVerificationRequested', 'NewDeviceSignedIn', 'NewEmailConfirmationRequested', 'PasswordResetRequested']);
    expect(byRetention('keep')).to.deep.equal([
      'AccountDeleted', 'AccountDisabled', 'AccountEnabled', 'ApiKeyCreated', 'ApiKeyRevoked', 'CredentialsRemoved', 'EmailChangeCancelled', 'EmailChangeReverted', 'EmailChanged', 'EmailVerified', 'IdentityLinked', 'IdentityUnlinked', 'MfaEnrolled', 'MfaRemoved', 'OperatorGranted', 'OperatorRevoked', 'PasskeyAdded', 'PasskeyCounterRegressed', 'PasskeyRemoved', 'PasswordChanged', 'PasswordRehashed', 'PasswordReset', 'ProfileChanged', 'RecoveryCodeUsed',
      'RecoveryCodesRegenerated', 'RefreshTokenReused', 'SessionRevoked', 'SessionsEnded', 'SignUpCancelled', 'UserRegistered',
    ]);
  });

  it("keeps a capability's events, which the core's table does not list: each as its manifest declares (API keys', social sign-in's)", () => {
    const declared = CAPABILITIES.flatMap((capability) => Object.entries(capability.events));
    expect(declared.map(([type]) => type)).to.include.members(['ApiKeyCreated', 'ApiKeyRevoked', 'IdentityLinked', 'SignedInWithProvider']);
    for (const capability of CAPABILITIES) {
      for (const type of Object.keys(capability.events)) {
        const { retention } = declarationOf(capability.events, type);
        expect(Object.keys(RETENTION), type).not.to.include(type);
        const [stamped] = appendedAs([{ eventId: 'e', type, aggregateId: null, occurredAt: NOW, payload: {}, metadata }], capability.events);
        expect(retentionOfEvent(stamped as EventRecord), type).to.equal(retention);
      }
    }
    expect(retentionOf('NoCoreType'), "a type the core's table does not hold is kept").to.equal('keep');
  });
});

describe('event retention on LMDB (the pruner over the storage primitive)', () => {
  let dir: string;
  let storage: Storage;
  let log: EventLog;
  beforeEach(async () => {
    dir = tempDir('retention');
    storage = await openStorage({ storage: { dataDir: dir, minFreeBytes: 0 } });
    log = storage.events;
  });
  afterEach(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('removes old high-volume events in bounded batches while appends and reads go on; keeps account-defining events, unsent mails and recent events', async () => {
    await log.append([event('UserRegistered', 400, 'ada@example.com')]);
    await log.append([event('EmailVerificationRequested', 200, 'ada@example.com', { binding: 'b' })]);
    const old = Array.from({ length: 1_050 }, () => event('SignInFailed', 120, 'mallory@example.com'));
    for (let i = 0; i < old.length; i += 100) await log.append(old.slice(i, i + 100));
    await log.append([event('UserSignedIn', 100, 'ada@example.com'), event('SignInFailed', 1, 'mallory@example.com')]);

    const batches: number[] = [];
    const pruner = new StoreEventPruner(storage.store);
    const counting: EventPruner = {
      pruneBatch: async (cutoff, limit) => {
        const result = await pruner.pruneBatch(cutoff, limit);
        batches.push(result.examined);
        return result;
      },
    };
    const sweeper = new EventRetentionJob(counting, { now: () => NOW }, { retentionDays: 90, intervalMs: 60_000, batchSize: 200, maxBatches: 100 }, console);
    const sweeping = sweeper.sweep();
    const during: Promise<unknown>[] = [];
    for (let i = 0; i < 20; i += 1) {
      during.push(log.append([event('SignInFailed', 0, `during${i}@example.com`)]));
      during.push(all(storage.store, 'ada@example.com', ['UserRegistered']));
    }
    const [removed] = await Promise.all([sweeping, ...during]);

    expect(removed).to.equal(1_051);
    expect(batches.length).to.be.greaterThan(5);
    expect(Math.max(...batches)).to.be.at.most(200);
    expect(await all(storage.store, 'mallory@example.com', ['SignInFailed'])).to.have.length(1);
    expect((await all(storage.store, 'ada@example.com', ['UserRegistered', 'UserSignedIn', 'EmailVerificationRequested'])).map((e) => e.type)).to.deep.equal([
      'EmailVerificationRequested',
      'UserRegistered',
    ]);
    expect(await all(storage.store, 'during7@example.com', ['SignInFailed'])).to.have.length(1);
    const page = await log.findByAggregate('user-ada@example.com', { limit: 10, cursor: null });
    expect(page.events.map((e) => e.type)).to.deep.equal(['EmailVerificationRequested', 'UserRegistered']);
    expect(await sweeper.sweep(), 'a second sweep finds nothing left').to.equal(0);
  });

  it("prunes a capability's event by the retention its capability stamped on it, and keeps one it declared kept", async () => {
    const declared = { WidgetPolished: 'prune', WidgetMade: 'keep' } as const;
    const capabilityEvent = (eventId: string, type: string) => ({ eventId, type, aggregateId: 'user-widget', occurredAt: new Date(NOW.getTime() - 120 * DAY), payload: {}, metadata });
    const appended = appendedAs([capabilityEvent('w-polished', 'WidgetPolished'), capabilityEvent('w-made', 'WidgetMade'), capabilityEvent('w-unnamed', 'WidgetUnnamed')], declared);
    expect((await storage.store.commit({ events: appended })).status).to.equal('committed');
    const removed = await new EventRetentionJob(new StoreEventPruner(storage.store), { now: () => NOW }, { retentionDays: 90, intervalMs: 60_000, batchSize: 50, maxBatches: 10 }, console).sweep();
    expect(removed).to.equal(1);
    const left = await Promise.all(['w-polished', 'w-made', 'w-unnamed'].map(async (id) => ((await storage.store.get(EVENTS, id)) === null ? [] : [id])));
    expect(left.flat(), 'kept: the one declared kept, and one its capability did not name').to.deep.equal(['w-made', 'w-unnamed']);
  });

  it('removes a mail event once its outbox entry is gone (sent)', async () => {
    const mail = event('PasswordResetRequested', 200, 'bob@example.com', { binding: 'b' });
    await log.append([mail]);
    expect(await storage.outbox.pendingCount()).to.equal(1);
    const unsent = new EventRetentionJob(new StoreEventPruner(storage.store), { now: () => NOW }, { retentionDays: 90, intervalMs: 60_000, batchSize: 10, maxBatches: 10 }, console);
    expect(await unsent.sweep(), 'kept while its mail is still to send').to.equal(0);
    await storage.outbox.markSent([mail.eventId]);
    const sweeper = new EventRetentionJob(new StoreEventPruner(storage.store), { now: () => NOW }, { retentionDays: 90, intervalMs: 60_000, batchSize: 10, maxBatches: 10 }, console);
    expect(await sweeper.sweep()).to.equal(1);
  });
});
