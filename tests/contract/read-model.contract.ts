import { expect } from 'chai';
import { InvalidCursor } from '../../src/application/errors.js';
import type { ActivityEntry } from '../../src/application/ports/activity-read-model.port.js';
import type { RecordedEvent } from '../../src/application/ports/event-log.port.js';
import type { UserReadModel } from '../../src/application/ports/user-read-model.port.js';
import { Session } from '../../src/domain/session.js';
import type { User } from '../../src/domain/user.js';
import { EventLogActivityReadModel } from '../../src/infrastructure/read-model/event-log-activity-read-model.js';
import { aRequestMetadata } from '../support/builders.js';
import { type StorageFactory, type StorageUnderTest, aUser } from './storage.contract.js';

const T0 = Date.parse('2026-04-01T08:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000);
let counter = 0;

const record = (user: User, agent: string): RecordedEvent[] =>
  user.pullEvents().map((event) => ({ ...event, eventId: `rm-${process.pid}-${++counter}`, metadata: aRequestMetadata({ userAgent: agent }) }));

/** The read models on one storage adapter (its own UserReadModel, the activity view over its EventLog): what the query side relies on. */
export function readModelContract(adapter: string, makeStorage: StorageFactory): void {
  describe(`Read models over ${adapter}`, () => {
    let storage: StorageUnderTest;
    let users: UserReadModel;
    let activity: EventLogActivityReadModel;
    beforeEach(async () => {
      storage = await makeStorage();
      users = storage.userViews;
      activity = new EventLogActivityReadModel(storage.events);
    });
    afterEach(async () => storage.dispose());

    async function userWithHistory(): Promise<User> {
      const user = aUser();
      await storage.users.add(user, record(user, 'agent-0'));
      for (const minutes of [1, 2, 3]) {
        user.recordFailedSignIn(at(minutes));
        await storage.events.append(record(user, `agent-${minutes}`));
      }
      user.recordSignIn(at(4));
      await storage.users.save(user, record(user, 'agent-4'));
      return user;
    }

    it('UserReadModel: the public view of a stored user and nothing else (no hash), null for an unknown id', async () => {
      const user = await userWithHistory();
      const view = await users.findById(user.id);
      expect(view).to.deep.equal({ id: user.id, name: 'Ada', lastname: 'Lovelace', email: user.email.value, emailverified: false });
      expect(Object.keys(view ?? {})).to.have.members(['id', 'name', 'lastname', 'email', 'emailverified']);
      expect(await users.findById('no-such-id')).to.equal(null);
    });

    it('UserReadModel: an account for a session to continue is its public view and its session epoch, which moves when every session ends; null for an unknown id', async () => {
      const user = await userWithHistory();
      const view = { id: user.id, name: 'Ada', lastname: 'Lovelace', email: user.email.value, emailverified: false };
      expect(await users.sessionAccountOf(user.id)).to.deep.equal({ user: view, sessionEpoch: 0, disabled: false });
      const loaded = (await storage.users.findById(user.id)) as User;
      loaded.verifyEmail(at(5));
      loaded.endSessions('sign_out', at(5), null);
      await storage.users.save(loaded, record(loaded, 'agent-5'));
      expect(await users.sessionAccountOf(user.id)).to.deep.equal({ user: { ...view, emailverified: true }, sessionEpoch: 1, disabled: false });
      expect(await users.sessionAccountOf('no-such-id')).to.equal(null);
    });

    it('SessionReadModel: a session is live for its own account only, until it is revoked or its account ends every session', async () => {
      const user = aUser();
      const lifetimes = { idleSeconds: 86_400, maxSeconds: 86_400 };
      const opened = (id: string, epoch: number) =>
        Session.start({ id, userId: user.id, email: user.email.value, at: at(0), clientIp: null, userAgent: 'agent', lifetimes, epoch });
      const [first, second] = [opened(`s1-${++counter}`, 0), opened(`s2-${++counter}`, 0)];
      await storage.users.add(user, record(user, 'agent-0'), first);
      const loaded = (await storage.users.findById(user.id)) as User;
      await storage.users.save(loaded, [], second);
      const views = storage.sessionViews;
      expect(await views.liveSessionAccount(first.id, user.id, at(1))).to.deep.equal({ id: user.id, name: user.name.value, lastname: user.lastname.value, email: user.email.value, emailverified: false });
      expect(await views.liveSessionAccount(first.id, 'another-user', at(1))).to.equal(null);
      expect(await views.liveSessionAccount('no-such-session', user.id, at(1))).to.equal(null);
      expect(await views.liveSessionAccount(first.id, user.id, at(60 * 25)), 'past its deadline').to.equal(null);
      expect((await views.live(user.id, at(1))).map((view) => view.id).sort()).to.deep.equal([first.id, second.id].sort());

      const ending = (await storage.sessions.findById(first.id)) as Session;
      ending.revoke('sign_out', at(2));
      await storage.sessions.save(ending, []);
      expect(await views.liveSessionAccount(first.id, user.id, at(3))).to.equal(null);
      const all = (await storage.users.findById(user.id)) as User;
      all.endSessions('sign_out', at(4), null);
      await storage.users.save(all, record(all, 'agent-5'));
      expect(await views.liveSessionAccount(second.id, user.id, at(5))).to.equal(null);
      expect(await views.live(user.id, at(5))).to.deep.equal([]);
      expect(await views.page(user.id, at(5), { limit: 10, cursor: null })).to.deep.equal({ sessions: [], nextCursor: null });
    });

    it("ActivityReadModel: the account's entries newest first, with metadata and failure reasons, no other account's", async () => {
      const user = await userWithHistory();
      await userWithHistory();
      const page = await activity.page(user.id, { limit: 10, cursor: null });
      expect(page.nextCursor).to.equal(null);
      expect(page.entries.map((entry) => [entry.type, entry.userAgent, entry.reason ?? null])).to.deep.equal([
        ['user_signed_in', 'agent-4', null],
        ['sign_in_failed', 'agent-3', 'wrong_password'],
        ['sign_in_failed', 'agent-2', 'wrong_password'],
        ['sign_in_failed', 'agent-1', 'wrong_password'],
        ['user_registered', 'agent-0', null],
      ]);
      expect(page.entries[1]).to.deep.equal({ type: 'sign_in_failed', occurredAt: at(3), clientIp: '203.0.113.7', userAgent: 'agent-3', reason: 'wrong_password' });
    });

    it('ActivityReadModel: follows cursors to the end; empty for an unknown user; refuses a foreign cursor', async () => {
      const user = await userWithHistory();
      const seen: ActivityEntry[] = [];
      let cursor: string | null = null;
      do {
        const page = await activity.page(user.id, { limit: 2, cursor });
        seen.push(...page.entries);
        cursor = page.nextCursor;
      } while (cursor !== null);
      expect(seen).to.deep.equal((await activity.page(user.id, { limit: 10, cursor: null })).entries);
      expect(await activity.page('no-such-user', { limit: 10, cursor: null })).to.deep.equal({ entries: [], nextCursor: null });
      let error: unknown;
      try {
        await activity.page(user.id, { limit: 2, cursor: 'not-a-cursor' });
      } catch (caught) {
        error = caught;
      }
      expect(error).to.be.instanceOf(InvalidCursor);
    });
  });
}
