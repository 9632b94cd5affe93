import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { LmdbStore } from '../../../src/infrastructure/lmdb/lmdb-store.js';
import { openStorage } from '../../../src/infrastructure/lmdb/lmdb-storage.js';
import { tempDir } from '../../support/test-service.js';

const T0 = Date.parse('2026-05-01T00:00:00.000Z');

/** An environment as the service wrote it before the storage primitive: users, their e-mails and sessions in databases of their own. */
async function writeOldLayout(dir: string): Promise<void> {
  const old = LmdbStore.open(dir);
  const users = old.root.openDB({ name: 'users' });
  const emails = old.root.openDB({ name: 'users-by-email' });
  const sessions = old.root.openDB({ name: 'sessions' });
  const failures = old.root.openDB({ name: 'sign-in-failures' });
  const events = old.root.openDB<unknown, number>({ name: 'events' });
  const outbox = old.root.openDB<unknown, number>({ name: 'outbox' });
  const metadata = { requestId: null, clientIp: null, userAgent: null };
  const user = { id: 'u1', name: 'Ada', lastname: 'Lovelace', email: 'ada@example.com', passwordHash: '$argon2id$x', createdAt: T0, emailVerified: true, sessionEpoch: 1, version: 4 };
  const session = (id: string, epoch: number) => ({
    id, userId: 'u1', email: 'ada@example.com', createdAt: T0, lastUsedAt: T0, absoluteExpiresAt: T0 + 86_400_000, expiresAt: T0 + 86_400_000,
    generation: 2, rotatedAt: T0, revokedAt: null, revokedReason: null, clientIp: null, userAgent: null, version: 3, passwordFailures: 0, epoch,
  });
  await old.root.transaction(() => {
    void users.put('u1', user);
    void emails.put('ada@example.com', 'u1');
    void users.put('u2', { ...user, id: 'u2', email: 'grace@example.com', emailVerified: false, sessionEpoch: 0, version: 0 });
    void emails.put('grace@example.com', 'u2');
    void sessions.put('s-live', session('s-live', 1));
    void sessions.put('s-old', session('s-old', 0));
    void failures.put('ada@example.com', [T0]);
    void events.put(1, { seq: 1, eventId: 'e1', type: 'UserRegistered', aggregateId: 'u1', occurredAt: T0, payload: { email: 'ada@example.com' }, metadata });
    void events.put(2, { seq: 2, eventId: 'e2', type: 'EmailVerificationRequested', aggregateId: 'u1', occurredAt: T0, payload: { email: 'ada@example.com', binding: 'b' }, metadata });
    void outbox.put(2, { eventId: 'e2', attempts: 1, nextAttemptAt: 0, leaseUntil: 0 });
  });
  await old.close();
}

describe('an LMDB environment written before the storage primitive', () => {
  let dir: string;
  beforeEach(() => (dir = tempDir('lmdb-migration')));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is moved into its tables when opened: accounts with their versions and e-mails, sessions with theirs, older epochs swept', async () => {
    await writeOldLayout(dir);
    const storage = await openStorage({ storage: { dataDir: dir, minFreeBytes: 0 } });
    try {
      const user = await storage.users.findByEmail('ada@example.com');
      expect(user?.snapshot()).to.deep.include({ id: 'u1', emailVerified: true, sessionEpoch: 1, version: 4, createdAt: new Date(T0) });
      expect(await storage.userViews.findById('u1')).to.deep.equal({ id: 'u1', name: 'Ada', lastname: 'Lovelace', email: 'ada@example.com', emailverified: true });
      expect(await storage.sessionViews.liveSessionAccount('s-live', 'u1', new Date(T0 + 1000))).to.deep.equal({ id: 'u1', name: 'Ada', lastname: 'Lovelace', email: 'ada@example.com', emailverified: true });
      const live = await storage.sessions.findById('s-live');
      expect(live?.snapshot()).to.deep.include({ version: 3, generation: 2, epoch: 1, createdAt: new Date(T0) });
      expect((await storage.sessions.findByUser('u1', 1)).map((session) => session.id)).to.deep.equal(['s-live']);
      expect(await storage.sessions.removeExpired(new Date(T0), 10), 'the session of the older epoch').to.equal(1);
      expect(await storage.sessions.findById('s-old')).to.equal(null);
      await storage.events.append([{ eventId: 'e3', type: 'UserSignedIn', aggregateId: 'u1', occurredAt: new Date(T0 - 1000), payload: { email: 'ada@example.com' }, metadata: { requestId: null, clientIp: null, userAgent: null } }]);
      const log = await storage.events.findByAggregate('u1', { limit: 10, cursor: null });
      expect(log.events.map((event) => event.eventId), 'in append order, newest first').to.deep.equal(['e3', 'e2', 'e1']);
      expect(log.events[2]?.occurredAt).to.deep.equal(new Date(T0));
      expect((await storage.outbox.claim(new Date(T0), 1000, 10)).map((mail) => [mail.event.eventId, mail.attempts])).to.deep.equal([['e2', 1]]);
      expect(await storage.users.unverifiedBefore(new Date(T0 + 1), 10), 'the unverified account, marked for the sweep').to.deep.equal(['u2']);
    } finally {
      await storage.close();
    }
    const reopened = await openStorage({ storage: { dataDir: dir, minFreeBytes: 0 } });
    try {
      expect((await reopened.users.findById('u1'))?.version, 'opened again: nothing moved twice').to.equal(4);
    } finally {
      await reopened.close();
    }
    const raw = LmdbStore.open(dir);
    try {
      for (const name of ['users', 'users-by-email', 'sessions', 'sign-in-failures', 'events', 'outbox']) expect([...raw.root.openDB({ name }).getKeys()], name).to.deep.equal([]);
    } finally {
      await raw.close();
    }
  });
});
