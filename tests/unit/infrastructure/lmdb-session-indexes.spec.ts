import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { Session } from '../../../src/domain/session.js';
import { openStorage } from '../../../src/infrastructure/lmdb/lmdb-storage.js';
import { toStoredSession } from '../../../src/infrastructure/lmdb/lmdb-session-table.js';
import { LmdbStore } from '../../../src/infrastructure/lmdb/lmdb-store.js';
import { tempDir } from '../../support/test-service.js';

const T0 = new Date('2026-05-01T00:00:00.000Z');
const LIFETIMES = { idleSeconds: 3600, maxSeconds: 86_400 };
const aSession = (id: string) =>
  Session.start({ id, userId: 'u-1', email: 'ada@example.com', at: T0, clientIp: null, userAgent: null, lifetimes: LIFETIMES, epoch: 0 });

describe('LMDB: an environment written before the session index layout 2 is re-indexed when opened', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('lmdb-session-indexes');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('finds its live sessions per user, leaves the revoked ones out, and sweeps those at their revocation', async () => {
    const old = LmdbStore.open(dir);
    const live = aSession('00000000-0000-4000-8000-000000000001');
    const revoked = aSession('00000000-0000-4000-8000-000000000002');
    revoked.revoke('sign_out', new Date(T0.getTime() + 1000));
    const oldUserIndex = old.root.openDB<null, [string, string]>({ name: 'sessions-by-user' });
    await old.root.transaction(() => {
      for (const session of [live, revoked]) {
        const stored = toStoredSession(session.snapshot(), 0);
        void old.sessions.put(stored.id, stored);
        void oldUserIndex.put([stored.userId, stored.id], null);
        void old.sessionTable.byEnd.put([stored.expiresAt, stored.id], null);
      }
    });
    await old.close();

    const storage = await openStorage({ storage: { dataDir: dir, minFreeBytes: 0 } });
    try {
      expect((await storage.sessions.findByUser('u-1', 0)).map((session) => session.id)).to.deep.equal([live.id]);
      expect(await storage.sessions.removeExpired(new Date(T0.getTime() + 2000), 10)).to.equal(1);
      expect(await storage.sessions.findById(revoked.id)).to.equal(null);
      expect((await storage.sessions.findById(live.id))?.id).to.equal(live.id);
    } finally {
      await storage.close();
    }
    const reopened = await openStorage({ storage: { dataDir: dir, minFreeBytes: 0 } });
    try {
      expect((await reopened.sessions.findByUser('u-1', 0)).map((session) => session.id)).to.deep.equal([live.id]);
    } finally {
      await reopened.close();
    }
  });
});
