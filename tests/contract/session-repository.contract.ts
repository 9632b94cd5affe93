import { expect } from 'chai';
import type { RecordedEvent } from '../../src/application/ports/event-log.port.js';
import type { SessionRepository } from '../../src/application/ports/session-repository.port.js';
import { InvalidCursor } from '../../src/application/errors.js';
import { Session } from '../../src/domain/session.js';
import { INDEX_COUNTS, indexCountKey } from '../../src/infrastructure/storage/commit-plan.js';
import { SESSIONS } from '../../src/infrastructure/storage/account-tables.js';
import { aRequestMetadata } from '../support/builders.js';
import type { StorageFactory, StorageUnderTest } from './storage.contract.js';

const T0 = Date.parse('2026-05-01T00:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000);
const LIFETIMES = { idleSeconds: 100, maxSeconds: 1000 };
let counter = 0;
const uuid = () => `00000000-0000-4000-8000-${String(process.pid % 1e6).padStart(6, '0')}${String(++counter).padStart(6, '0')}`;

const aSession = (userId: string, start = 0) =>
  Session.start({ id: uuid(), userId, email: `${userId}@example.com`, at: at(start), clientIp: '203.0.113.7', userAgent: 'agent', lifetimes: LIFETIMES, epoch: 0 });

const recorded = (session: Session): RecordedEvent[] =>
  session.pullEvents().map((event) => ({ ...event, eventId: `ev-${uuid()}`, metadata: aRequestMetadata() }));

/** Every SessionRepository: one record per session, compare-and-swap saves, batched expiry. */
export function sessionRepositoryContract(adapter: string, makeStorage: StorageFactory): void {
  describe(`SessionRepository contract: ${adapter}`, () => {
    let storage: StorageUnderTest;
    let sessions: SessionRepository;
    beforeEach(async () => {
      storage = await makeStorage();
      sessions = storage.sessions;
    });
    afterEach(async () => storage.dispose());

    it('stores a session with its events; finds it by id and by user; null and [] for unknown ones', async () => {
      const userId = `user-${uuid()}`;
      const session = aSession(userId);
      await sessions.add(session, recorded(session));
      expect((await sessions.findById(session.id))?.snapshot()).to.deep.equal(session.snapshot());
      expect((await sessions.findByUser(userId, 0)).map((s) => s.id)).to.deep.equal([session.id]);
      expect(await sessions.findById(uuid())).to.equal(null);
      expect(await sessions.findByUser(`user-${uuid()}`, 0)).to.deep.equal([]);
      const page = await storage.events.findByAggregate(userId, { limit: 10, cursor: null });
      expect(page.events.map((event) => event.type)).to.deep.equal(['SessionStarted']);
    });

    it('saves by compare-and-swap: of two writers holding the same version, exactly one wins, and its events only', async () => {
      const userId = `user-${uuid()}`;
      const session = aSession(userId);
      await sessions.add(session, recorded(session));
      const [a, b] = await Promise.all([sessions.findById(session.id), sessions.findById(session.id)]);
      a?.rotate(at(10), LIFETIMES);
      b?.revoke('sign_out', at(10));
      const results = await Promise.all([sessions.save(a as Session, recorded(a as Session)), sessions.save(b as Session, recorded(b as Session))]);
      expect(results.filter(Boolean)).to.have.length(1);
      const stored = await sessions.findById(session.id);
      const revokedEvents = (await storage.events.findByAggregate(userId, { limit: 10, cursor: null })).events.filter((event) => event.type !== 'SessionStarted');
      if (results[0]) {
        expect(stored?.generation).to.equal(1);
        expect(stored?.revoked).to.equal(false);
        expect(revokedEvents).to.deep.equal([]);
      } else {
        expect(stored?.revoked).to.equal(true);
        expect(revokedEvents.map((event) => event.type)).to.deep.equal(['SessionRevoked']);
      }
      expect(await sessions.save(a as Session, [])).to.equal(false);
    });

    it('lets exactly one of ten simultaneous rotations of one version through', async () => {
      const session = aSession(`user-${uuid()}`);
      await sessions.add(session, recorded(session));
      const copies = await Promise.all(Array.from({ length: 10 }, () => sessions.findById(session.id)));
      for (const copy of copies) copy?.rotate(at(5), LIFETIMES);
      const results = await Promise.all(copies.map((copy) => sessions.save(copy as Session, [])));
      expect(results.filter(Boolean)).to.have.length(1);
      expect((await sessions.findById(session.id))?.generation).to.equal(1);
    });

    it('removes ended sessions in batches of at most `limit`, keeping live and refreshed ones', async () => {
      const userId = `user-${uuid()}`;
      const ended = [1, 2, 3, 4, 5].map(() => aSession(userId));
      const refreshed = aSession(userId);
      const live = aSession(userId, 500);
      for (const session of [...ended, refreshed, live]) await sessions.add(session, recorded(session));
      const loaded = await sessions.findById(refreshed.id);
      loaded?.rotate(at(90), LIFETIMES);
      expect(await sessions.save(loaded as Session, [])).to.equal(true);

      expect(await sessions.removeExpired(at(150), 2)).to.equal(2);
      expect(await sessions.removeExpired(at(150), 2)).to.equal(2);
      expect(await sessions.removeExpired(at(150), 2)).to.equal(1);
      expect(await sessions.removeExpired(at(150), 2)).to.equal(0);
      expect((await sessions.findByUser(userId, 0)).map((s) => s.id).sort()).to.deep.equal([refreshed.id, live.id].sort());
      expect(await sessions.findById(ended[0]?.id ?? '')).to.equal(null);
    });

    it('reads per user the sessions not revoked only: a revoked one is no longer found by user, still by id until swept', async () => {
      const userId = `user-${uuid()}`;
      const [kept, ended] = [aSession(userId), aSession(userId, 1)];
      for (const session of [kept, ended]) await sessions.add(session, recorded(session));
      const loaded = (await sessions.findById(ended.id)) as Session;
      loaded.revoke('sign_out', at(10));
      expect(await sessions.save(loaded, recorded(loaded))).to.equal(true);

      expect((await sessions.findByUser(userId, 0)).map((s) => s.id)).to.deep.equal([kept.id]);
      expect((await sessions.findById(ended.id))?.revoked).to.equal(true);
    });

    it('sweeps a revoked session once it is revoked, long before its expiresAt, and only then', async () => {
      const userId = `user-${uuid()}`;
      const [kept, ended] = [aSession(userId), aSession(userId)];
      for (const session of [kept, ended]) await sessions.add(session, recorded(session));
      const loaded = (await sessions.findById(ended.id)) as Session;
      loaded.revoke('sign_out', at(10));
      expect(await sessions.save(loaded, recorded(loaded))).to.equal(true);

      expect(await sessions.removeExpired(at(9), 10)).to.equal(0);
      expect(await sessions.removeExpired(at(10), 10)).to.equal(1);
      expect(await sessions.findById(ended.id)).to.equal(null);
      expect((await sessions.findById(kept.id))?.id).to.equal(kept.id);
      expect(await sessions.removeExpired(at(10), 10)).to.equal(0);
    });

    it('saves many sessions in one compare-and-swap: all with their events, or, when one is stale, none and no event', async () => {
      const userId = `user-${uuid()}`;
      const all = [aSession(userId), aSession(userId), aSession(userId)];
      for (const session of all) await sessions.add(session, recorded(session));
      const load = async () => Promise.all(all.map(async (session) => (await sessions.findById(session.id)) as Session));

      const stale = await load();
      const [first] = await load();
      first?.rotate(at(5), LIFETIMES);
      expect(await sessions.save(first as Session, [])).to.equal(true);
      for (const session of stale) session.revoke('sign_out', at(10));
      expect(await sessions.saveMany(stale, stale.flatMap(recorded))).to.equal(false);
      expect((await sessions.findByUser(userId, 0)).map((s) => s.revoked)).to.deep.equal([false, false, false]);
      expect((await storage.events.findByAggregate(userId, { limit: 10, cursor: null })).events.filter((event) => event.type !== 'SessionStarted')).to.deep.equal([]);

      const fresh = await load();
      for (const session of fresh) session.revoke('sign_out', at(10));
      expect(await sessions.saveMany(fresh, fresh.flatMap(recorded))).to.equal(true);
      expect(await sessions.findByUser(userId, 0)).to.deep.equal([]);
      expect((await sessions.findById(all[0]?.id ?? ''))?.revoked).to.equal(true);
      const revokedEvents = (await storage.events.findByAggregate(userId, { limit: 10, cursor: null })).events.filter((event) => event.type !== 'SessionStarted');
      expect(revokedEvents.map((event) => event.type)).to.deep.equal(['SessionRevoked', 'SessionRevoked', 'SessionRevoked']);
      expect(await sessions.saveMany(fresh, [])).to.equal(false);
      expect(await sessions.saveMany([], [])).to.equal(true);
    });

    it('finds the sessions beyond the `keep` most recently used, least recently used first, at most `max`, revoked ones left out', async () => {
      const userId = `user-${uuid()}`;
      const all = [0, 1, 2, 3, 4].map((start) => aSession(userId, start));
      for (const session of all) await sessions.add(session, recorded(session));
      const use = async (session: Session | undefined, seconds: number) => {
        const loaded = (await sessions.findById(session?.id ?? '')) as Session;
        loaded.rotate(at(seconds), LIFETIMES);
        expect(await sessions.save(loaded, [])).to.equal(true);
      };
      await use(all[0], 50);
      const revoked = (await sessions.findById(all[1]?.id ?? '')) as Session;
      revoked.revoke('sign_out', at(60));
      expect(await sessions.save(revoked, recorded(revoked))).to.equal(true);
      const ids = async (keep: number, max: number) => (await sessions.leastRecentlyUsed(userId, 0, keep, max)).map((s) => s.id);

      expect(await ids(1, 10)).to.deep.equal([all[2]?.id, all[3]?.id, all[4]?.id]);
      expect(await ids(2, 10)).to.deep.equal([all[2]?.id, all[3]?.id]);
      expect(await ids(0, 2)).to.deep.equal([all[2]?.id, all[3]?.id]);
      expect(await ids(4, 10)).to.deep.equal([]);
      expect(await ids(9, 10)).to.deep.equal([]);
      expect(await sessions.leastRecentlyUsed(`user-${uuid()}`, 0, 0, 10)).to.deep.equal([]);
    });

    it('keeps the count of an account\'s live sessions that the cap reads, exactly, as sessions open, end and are swept', async () => {
      const userId = `user-${uuid()}`;
      /** The count's record (null: none) and the index walked, which it must equal. */
      const counts = async () => ({
        record: (await storage.store.get(INDEX_COUNTS, indexCountKey(SESSIONS, 'liveByUse', [userId, 0])))?.value.count ?? null,
        walked: await storage.store.count(SESSIONS, 'liveByUse', [userId, 0]),
      });
      const opened = Array.from({ length: 8 }, (_, i) => aSession(userId, i));
      await Promise.all(opened.map((session) => sessions.add(session, recorded(session))));
      expect(await counts()).to.deep.equal({ record: 8, walked: 8 });
      // Two revoked alone and one racing a rotation of its own version, two more ended in one write: five or six end.
      const loaded = await Promise.all(opened.map((session) => sessions.findById(session.id))) as Session[];
      const twin = (await sessions.findById(opened[2]?.id ?? '')) as Session;
      for (const session of loaded.slice(0, 5)) session.revoke('sign_out', at(20));
      twin.rotate(at(20), LIFETIMES);
      await Promise.all([sessions.save(loaded[0] as Session, []), sessions.save(loaded[1] as Session, []), sessions.save(loaded[2] as Session, []), sessions.save(twin, []), sessions.saveMany(loaded.slice(3, 5), [])]);
      const afterEnding = await counts();
      expect(afterEnding.record).to.equal(afterEnding.walked);
      expect(afterEnding.walked).to.be.oneOf([3, 4]);
      expect(await sessions.removeExpired(at(30), 100), 'the revoked ones swept').to.be.oneOf([4, 5]);
      expect(await counts()).to.deep.equal(afterEnding);
      expect(await sessions.removeExpired(at(5000), 100), 'the rest expired and swept').to.equal(afterEnding.walked);
      expect(await counts()).to.deep.equal({ record: null, walked: 0 });
    });

    it('pages the sessions not revoked of a user newest first (createdAt, then id), at most `limit` a page, refusing a foreign cursor', async () => {
      const userId = `user-${uuid()}`;
      const all = [0, 1, 1, 2, 3].map((start) => aSession(userId, start));
      for (const session of [...all, aSession(`user-${uuid()}`, 2)]) await sessions.add(session, recorded(session));
      const revoked = (await sessions.findById(all[3]?.id ?? '')) as Session;
      revoked.revoke('sign_out', at(5));
      expect(await sessions.save(revoked, recorded(revoked))).to.equal(true);
      const expected = [all[4], all[2], all[1], all[0]].map((s) => s?.id);

      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: { sessions: Session[]; nextCursor: string | null } = await sessions.findPageByUser(userId, 0, { limit: 3, cursor });
        expect(page.sessions.length).to.be.at.most(3);
        seen.push(...page.sessions.map((s) => s.id));
        cursor = page.nextCursor;
        pages += 1;
      } while (cursor !== null && pages < 5);
      expect(seen).to.deep.equal(expected);
      expect(pages).to.equal(2);
      expect((await sessions.findPageByUser(userId, 0, { limit: 4, cursor: null })).nextCursor).to.equal(null);
      expect(await sessions.findPageByUser(`user-${uuid()}`, 0, { limit: 4, cursor: null })).to.deep.equal({ sessions: [], nextCursor: null });
      const error = await sessions.findPageByUser(userId, 0, { limit: 3, cursor: 'bm90IGEgY3Vyc29y' }).then(() => null, (e: unknown) => e);
      expect(error).to.be.instanceOf(InvalidCursor);
    });
  });
}
