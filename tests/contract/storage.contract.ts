import { TEST_SCHEMA } from '../support/test-schema.js';
import { Passkey } from '../../src/domain/passkeys/passkey.js';
import { StorePasskeyRepository } from '../../src/infrastructure/passkeys/store-passkey.repository.js';
import { TotpFactor } from '../../src/domain/second-factor/second-factor.js';
import { StoreSecondFactorRepository } from '../../src/infrastructure/second-factor/store-second-factor.repository.js';
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { EventLog, RecordedEvent } from '../../src/application/ports/event-log.port.js';
import type { StoreHealth } from '../../src/application/ports/store-health.port.js';
import { InvalidCursor, ServiceUnavailable } from '../../src/application/errors.js';
import type { Outbox } from '../../src/application/ports/outbox.port.js';
import type { SessionRepository } from '../../src/application/ports/session-repository.port.js';
import type { UserReadModel } from '../../src/application/ports/user-read-model.port.js';
import type { SessionReadModel } from '../../src/application/ports/session-read-model.port.js';
import type { UserRepository } from '../../src/application/ports/user-repository.port.js';
import { signInFailed } from '../../src/domain/user.js';
import { EmailAlreadyRegistered } from '../../src/domain/domain-error.js';
import { Email } from '../../src/domain/email.js';
import { PersonName } from '../../src/domain/person-name.js';
import { Session } from '../../src/domain/session.js';
import { type Store, type Table, put } from '../../src/infrastructure/storage/store.js';
import { User } from '../../src/domain/user.js';
import { aRequestMetadata } from '../support/builders.js';
import { valueOf } from '../support/parsed.js';
import { rejection } from '../support/rejection.js';
import { eventsAbout } from '../support/events-about.js';
import { KEY_CHECK, KEY_CHECK_ID } from '../../src/infrastructure/storage/sealing-store.js';

/** What a storage adapter group provides: its ports over one store, and a way to let go of it. */
export interface StorageUnderTest {
  readonly store: Store;
  readonly users: UserRepository;
  readonly userViews: UserReadModel;
  readonly sessionViews: SessionReadModel;
  readonly events: EventLog;
  readonly sessions: SessionRepository;
  readonly outbox: Outbox;
  readonly health: StoreHealth;
  /** The start-up check that the store's personal data is sealed under these keys (Storage.verifyKeys). */
  readonly verifyKeys: () => Promise<void>;
  /** Closes the store under the adapters (what a lost handle or connection looks like to them). */
  closeStore(): Promise<void>;
  dispose(): Promise<void>;
}

export type StorageFactory = () => Promise<StorageUnderTest>;

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000);
let counter = 0;
const uniqueId = (prefix: string) => `${prefix}-${process.pid}-${Date.now()}-${++counter}`;


export const aUser = (email = `${uniqueId('user')}@example.com`, id = uniqueId('uid')): User =>
  User.register({
    id,
    name: valueOf(PersonName.parse('name', 'Ada')),
    lastname: valueOf(PersonName.parse('lastname', 'Lovelace')),
    email: valueOf(Email.parse(email)),
    passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g',
    at: at(0),
  });

const record = (user: User): RecordedEvent[] =>
  user.pullEvents().map((event) => ({ ...event, eventId: uniqueId('evt'), metadata: aRequestMetadata() }));

/** A session opened for `user` at `minutes`, as sign-up and sign-in open one (random UUID id, like the service's). */
const aSessionOf = (user: User, minutes: number): Session =>
  Session.start({ id: randomUUID(), userId: user.id, email: user.email.value, at: at(minutes), clientIp: '203.0.113.7', userAgent: 'agent', lifetimes: { idleSeconds: 86_400, maxSeconds: 86_400 }, epoch: user.sessionEpoch });

const recordSession = (session: Session): RecordedEvent[] =>
  session.pullEvents().map((event) => ({ ...event, eventId: uniqueId('evt'), metadata: aRequestMetadata() }));

const failure = (email: string, minutes: number, eventId = uniqueId('evt')): RecordedEvent => ({
  ...signInFailed(email, 'unknown_email', null, at(minutes)),
  eventId,
  metadata: aRequestMetadata({ userAgent: `agent-${minutes}` }),
});


/** The behaviour every UserRepository adapter must share. */
export function userRepositoryContract(adapter: string, makeStorage: StorageFactory): void {
  describe(`UserRepository contract: ${adapter}`, () => {
    let storage: StorageUnderTest;
    beforeEach(async () => (storage = await makeStorage()));
    afterEach(async () => storage.dispose());

    it('returns null for an unknown e-mail or id', async () => {
      expect(await storage.users.findByEmail('nobody@example.com')).to.equal(null);
      expect(await storage.users.findById('no-such-id')).to.equal(null);
    });

    it('finds an added user by e-mail and by id, state intact', async () => {
      const user = aUser();
      await storage.users.add(user, record(user));
      expect((await storage.users.findByEmail(user.email.value))?.snapshot()).to.deep.equal(user.snapshot());
      expect((await storage.users.findById(user.id))?.snapshot()).to.deep.equal(user.snapshot());
    });

    it('commits the events given with add, visible in the event log', async () => {
      const user = aUser();
      const events = record(user);
      await storage.users.add(user, events);
      const logged = await eventsAbout(storage.store, { email: user.email.value, types: ['UserRegistered'], since: at(-1), limit: 10 });
      expect(logged).to.deep.equal(events);
    });

    it('refuses a second user with the same e-mail, and writes none of its state or events', async () => {
      const email = `${uniqueId('dup')}@example.com`;
      const first = aUser(email);
      await storage.users.add(first, record(first));
      const second = aUser(email);
      const error = await rejection(storage.users.add(second, record(second)));

      expect(error).to.be.instanceOf(EmailAlreadyRegistered);
      expect(await storage.users.findById(second.id)).to.equal(null);
      expect((await storage.users.findByEmail(email))?.id).to.equal(first.id);
      const logged = await eventsAbout(storage.store, { email, types: ['UserRegistered'], since: at(-1), limit: 10 });
      expect(logged.map((event) => event.aggregateId)).to.deep.equal([first.id]);
    });

    it('lets exactly one of many concurrent adds of one e-mail win', async () => {
      const email = `${uniqueId('race')}@example.com`;
      const contenders = Array.from({ length: 20 }, () => aUser(email));
      const outcomes = await Promise.allSettled(contenders.map((user) => storage.users.add(user, record(user))));

      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).to.have.length(1);
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') expect(outcome.reason).to.be.instanceOf(EmailAlreadyRegistered);
      }
      const logged = await eventsAbout(storage.store, { email, types: ['UserRegistered'], since: at(-1), limit: 50 });
      expect(logged).to.have.length(1);
    });

    it('saves a changed user together with its events as a compare-and-swap, moving its version on by one', async () => {
      const user = aUser();
      await storage.users.add(user, record(user));
      const loaded = (await storage.users.findById(user.id)) as User;
      expect(loaded.version).to.equal(0);
      loaded.rehashPassword('$argon2id$v=19$m=19456,t=2,p=1$bmV3c2FsdA$bmV3aGFzaA', at(5));
      loaded.recordSignIn(at(5));

      expect(await storage.users.save(loaded, record(loaded))).to.equal(true);
      const stored = await storage.users.findById(user.id);
      expect(stored?.passwordHash).to.equal(loaded.passwordHash);
      expect(stored?.version).to.equal(1);
      const logged = await eventsAbout(storage.store, { email: user.email.value, types: ['PasswordRehashed', 'UserSignedIn'], since: at(-1), limit: 10 });
      expect(logged.map((event) => event.type).sort()).to.deep.equal(['PasswordRehashed', 'UserSignedIn']);
    });

    it('refuses a save from a stale load (another write got there first), writing neither its state, its events nor its session', async () => {
      const user = aUser();
      await storage.users.add(user, record(user));
      const [first, stale] = [(await storage.users.findById(user.id)) as User, (await storage.users.findById(user.id)) as User];
      first.changePassword('$argon2id$v=19$m=19456,t=2,p=1$Zmlyc3Q$Zmlyc3Q', at(5));
      expect(await storage.users.save(first, record(first))).to.equal(true);

      stale.recordSignIn(at(6));
      const opened = aSessionOf(stale, 6);
      expect(await storage.users.save(stale, [...record(stale), ...recordSession(opened)], opened)).to.equal(false);
      expect((await storage.users.findById(user.id))?.passwordHash).to.equal(first.passwordHash);
      expect(await eventsAbout(storage.store, { email: user.email.value, types: ['UserSignedIn', 'SessionStarted'], since: at(-1), limit: 10 })).to.deep.equal([]);
      expect(await storage.sessions.findById(opened.id)).to.equal(null);
    });

    it('lets exactly one of many concurrent changes from one loaded version win', async () => {
      const user = aUser();
      await storage.users.add(user, record(user));
      const copies = (await Promise.all(Array.from({ length: 10 }, () => storage.users.findById(user.id)))) as User[];
      const results = await Promise.all(copies.map((copy, n) => {
        copy.changeProfile(valueOf(PersonName.parse('name', `Ada${n}`)), copy.lastname, at(n + 1));
        return storage.users.save(copy, record(copy));
      }));

      expect(results.filter(Boolean)).to.have.length(1);
      const stored = await storage.users.findById(user.id);
      expect(stored?.version).to.equal(1);
      expect(stored?.name.value).to.equal(`Ada${results.indexOf(true)}`);
      expect(await eventsAbout(storage.store, { email: user.email.value, types: ['ProfileChanged'], since: at(-1), limit: 20 })).to.have.length(1);
    });

    it('commits every concurrent save that only records events (sign-ins) without moving the version, and refuses them once the state changed', async () => {
      const user = aUser();
      await storage.users.add(user, record(user));
      const copies = (await Promise.all(Array.from({ length: 10 }, () => storage.users.findById(user.id)))) as User[];
      const results = await Promise.all(copies.map((copy, n) => {
        copy.recordSignIn(at(n + 1));
        const opened = aSessionOf(copy, n + 1);
        return storage.users.save(copy, [...record(copy), ...recordSession(opened)], opened);
      }));
      expect(results).to.deep.equal(copies.map(() => true));
      expect((await storage.users.findById(user.id))?.version).to.equal(0);
      expect(await storage.sessions.findByUser(user.id, 0)).to.have.length(10);

      const changer = (await storage.users.findById(user.id)) as User;
      const stale = (await storage.users.findById(user.id)) as User;
      changer.changePassword('$argon2id$v=19$m=19456,t=2,p=1$Y2hhbmdl$Y2hhbmdl', at(20));
      expect(await storage.users.save(changer, record(changer))).to.equal(true);
      stale.recordSignIn(at(21));
      expect(await storage.users.save(stale, record(stale))).to.equal(false);
      expect(await eventsAbout(storage.store, { email: user.email.value, types: ['UserSignedIn'], since: at(-1), limit: 20 })).to.have.length(10);
    });

    it('skips events already in the log (same eventId) when a later save carries them again', async () => {
      const user = aUser();
      await storage.users.add(user, record(user));
      const loaded = (await storage.users.findById(user.id)) as User;
      loaded.recordSignIn(at(5));
      const events = record(loaded);
      await storage.users.save(loaded, events);
      const again = (await storage.users.findById(user.id)) as User;

      expect(await storage.users.save(again, events)).to.equal(true);
      expect(await eventsAbout(storage.store, { email: user.email.value, types: ['UserSignedIn'], since: at(-1), limit: 10 })).to.deep.equal(events);
    });

    it('stores the session a sign-up or a sign-in opened in the same commit as the user, and none when the add is refused', async () => {
      const user = aUser();
      const atSignUp = aSessionOf(user, 0);
      await storage.users.add(user, [...record(user), ...recordSession(atSignUp)], atSignUp);
      expect((await storage.sessions.findById(atSignUp.id))?.snapshot()).to.deep.equal(atSignUp.snapshot());

      const loaded = (await storage.users.findById(user.id)) as User;
      loaded.recordSignIn(at(5));
      const atSignIn = aSessionOf(loaded, 5);
      expect(await storage.users.save(loaded, [...record(loaded), ...recordSession(atSignIn)], atSignIn)).to.equal(true);
      expect((await storage.sessions.findByUser(user.id, 0)).map((session) => session.id).sort()).to.deep.equal([atSignUp.id, atSignIn.id].sort());
      const started = await eventsAbout(storage.store, { email: user.email.value, types: ['SessionStarted'], since: at(-1), limit: 10 });
      expect(started.map((event) => (event.payload as { sessionId?: string }).sessionId).sort()).to.deep.equal([atSignUp.id, atSignIn.id].sort());
      expect(started.map((event) => event.aggregateId), 'events of the account').to.deep.equal([user.id, user.id]);

      const twin = aUser(user.email.value);
      const refused = aSessionOf(twin, 7);
      expect(await rejection(storage.users.add(twin, [...record(twin), ...recordSession(refused)], refused))).to.be.instanceOf(EmailAlreadyRegistered);
      expect(await storage.sessions.findById(refused.id)).to.equal(null);
      expect(await storage.sessions.findByUser(twin.id, 0)).to.deep.equal([]);
    });

    it('ends the sessions a sign-in evicts in its commit, by compare-and-swap: when one changed meanwhile, nothing is written', async () => {
      const user = aUser();
      const older = aSessionOf(user, 0);
      await storage.users.add(user, [...record(user), ...recordSession(older)], older);

      const stale = (await storage.users.findById(user.id)) as User;
      stale.recordSignIn(at(5));
      const evicted = (await storage.sessions.findById(older.id)) as Session;
      const refreshed = (await storage.sessions.findById(older.id)) as Session;
      refreshed.rotate(at(4), { idleSeconds: 86_400, maxSeconds: 86_400 });
      expect(await storage.sessions.save(refreshed, [])).to.equal(true);
      evicted.revoke('evicted', at(5));
      const refused = aSessionOf(stale, 5);
      expect(await storage.users.save(stale, [...record(stale), ...recordSession(refused), ...recordSession(evicted)], refused, [evicted])).to.equal(false);
      expect(await storage.sessions.findById(refused.id)).to.equal(null);
      expect((await storage.sessions.findById(older.id))?.revoked).to.equal(false);
      expect(await eventsAbout(storage.store, { email: user.email.value, types: ['UserSignedIn', 'SessionRevoked'], since: at(-1), limit: 10 })).to.deep.equal([]);

      const loaded = (await storage.users.findById(user.id)) as User;
      loaded.recordSignIn(at(6));
      const again = (await storage.sessions.findById(older.id)) as Session;
      again.revoke('evicted', at(6));
      const opened = aSessionOf(loaded, 6);
      expect(await storage.users.save(loaded, [...record(loaded), ...recordSession(opened), ...recordSession(again)], opened, [again])).to.equal(true);
      expect((await storage.sessions.findByUser(user.id, 0)).map((session) => session.id)).to.deep.equal([opened.id]);
      expect((await storage.sessions.findById(older.id))?.snapshot().revokedReason).to.equal('evicted');
      const revoked = await eventsAbout(storage.store, { email: user.email.value, types: ['SessionRevoked'], since: at(-1), limit: 10 });
      expect(revoked.map((event) => event.payload)).to.deep.equal([{ email: user.email.value, sessionId: older.id, reason: 'evicted' }]);
    });

    it('ends every session of an account but the kept one in its own commit (a new session epoch), and the sweep removes the rest', async () => {
      const user = aUser();
      const first = aSessionOf(user, 0);
      await storage.users.add(user, [...record(user), ...recordSession(first)], first);
      const others: Session[] = [];
      for (let n = 1; n <= 4; n++) {
        const loaded = (await storage.users.findById(user.id)) as User;
        const opened = aSessionOf(loaded, n);
        expect(await storage.users.save(loaded, recordSession(opened), opened)).to.equal(true);
        others.push(opened);
      }
      const stale = (await storage.users.findById(user.id)) as User;

      const ending = (await storage.users.findById(user.id)) as User;
      const kept = (await storage.sessions.findById(others[0]?.id ?? '')) as Session;
      ending.endSessions('sign_out', at(10), kept.id);
      kept.carryInto(ending.sessionEpoch);
      expect(await storage.users.save(ending, record(ending), undefined, [kept])).to.equal(true);

      expect((await storage.users.findById(user.id))?.sessionEpoch).to.equal(1);
      expect((await storage.sessions.findByUser(user.id, 1)).map((session) => session.id)).to.deep.equal([kept.id]);
      expect((await storage.sessions.findPageByUser(user.id, 1, { limit: 10, cursor: null })).sessions.map((session) => session.id)).to.deep.equal([kept.id]);
      expect((await storage.sessions.leastRecentlyUsed(user.id, 1, 0, 10)).map((session) => session.id)).to.deep.equal([kept.id]);
      const ended = await eventsAbout(storage.store, { email: user.email.value, types: ['SessionsEnded'], since: at(-1), limit: 10 });
      expect(ended.map((event) => event.payload)).to.deep.equal([{ email: user.email.value, reason: 'sign_out', keptSessionId: kept.id }]);

      stale.recordSignIn(at(11));
      const raced = aSessionOf(stale, 11);
      expect(await storage.users.save(stale, [...record(stale), ...recordSession(raced)], raced)).to.equal(false);
      const later = (await storage.users.findById(user.id)) as User;
      const opened = aSessionOf(later, 12);
      expect(await storage.users.save(later, recordSession(opened), opened)).to.equal(true);
      expect((await storage.sessions.findByUser(user.id, 1)).map((session) => session.id).sort()).to.deep.equal([kept.id, opened.id].sort());

      await storage.sessions.removeExpired(at(13), 100);
      for (const session of [first, ...others.slice(1)]) expect(await storage.sessions.findById(session.id), session.id).to.equal(null);
      expect((await storage.sessions.findById(kept.id))?.epoch).to.equal(1);
      expect((await storage.sessions.findById(opened.id))?.epoch).to.equal(1);
      expect(await storage.sessions.findById(raced.id)).to.equal(null);
    });

    it('refuses to store a session still live in an epoch its account left (a refresh racing the end of every session), yet stores its revocation', async () => {
      const user = aUser();
      const opened = aSessionOf(user, 0);
      await storage.users.add(user, [...record(user), ...recordSession(opened)], opened);
      const refreshing = (await storage.sessions.findById(opened.id)) as Session;
      const ending = (await storage.users.findById(user.id)) as User;
      ending.endSessions('sign_out', at(10), null);
      expect(await storage.users.save(ending, record(ending))).to.equal(true);

      refreshing.rotate(at(11), { idleSeconds: 86_400, maxSeconds: 86_400 });
      expect(await storage.sessions.save(refreshing, recordSession(refreshing))).to.equal(false);
      expect((await storage.sessions.findById(opened.id))?.generation).to.equal(0);
      const revoking = (await storage.sessions.findById(opened.id)) as Session;
      revoking.revoke('sign_out', at(12));
      expect(await storage.sessions.save(revoking, recordSession(revoking))).to.equal(true);
    });

    it('erases an unverified account in one commit (view, address, sessions, second factor, passkeys, events, a pseudonymous event kept), lists the unverified by age, and refuses a stale erase', async () => {
      const [kept, gone] = [aUser(), aUser()];
      await storage.users.add(kept, record(kept));
      const session = aSessionOf(gone, 1);
      await storage.users.add(gone, record(gone), session);
      const factors = new StoreSecondFactorRepository(storage.store);
      await factors.add(TotpFactor.enrol(gone.id, 's1.sealed', at(1)), []);
      const passkeys = new StorePasskeyRepository(storage.store, TEST_SCHEMA);
      const passkey = Passkey.register({ id: `cred-${gone.id}`, userId: gone.id, name: 'Laptop', publicKey: 'pk', counter: 0, transports: [], backedUp: false, deviceType: 'singleDevice', createdAt: at(1) });
      await passkeys.add(passkey, []);
      expect(await storage.users.unverifiedBefore(at(1), 10_000)).to.include.members([kept.id, gone.id]);
      expect(await storage.users.unverifiedBefore(at(0), 10_000), 'created at 0: not before it').to.not.include(gone.id);

      const loaded = await storage.users.findById(gone.id);
      expect(loaded?.cancelSignUp('not_me', at(2))).to.equal(true);
      expect(await storage.users.erase(loaded as User, record(loaded as User))).to.equal(true);
      expect(await storage.users.findById(gone.id)).to.equal(null);
      expect(await storage.users.findByEmail(gone.email.value)).to.equal(null);
      expect(await storage.userViews.findById(gone.id)).to.equal(null);
      expect(await factors.find(gone.id), 'its second factor, even unconfirmed').to.equal(null);
      expect(await passkeys.find(passkey.id), 'its passkeys').to.equal(null);
      expect(await storage.sessionViews.liveSessionAccount(session.id, gone.id, at(2))).to.equal(null);
      const left = await storage.events.findByAggregate(gone.id, { limit: 10, cursor: null });
      expect(left.events.map((event) => [event.type, event.payload])).to.deep.equal([['SignUpCancelled', { reason: 'not_me' }]]);
      expect(await eventsAbout(storage.store, { email: gone.email.value, types: ['UserRegistered'], since: at(-1), limit: 10 })).to.deep.equal([]);
      expect(await storage.users.unverifiedBefore(at(1), 10_000)).to.not.include(gone.id);
      const again = aUser(gone.email.value);
      await storage.users.add(again, record(again));

      const [first, second] = [await storage.users.findById(kept.id), await storage.users.findById(kept.id)] as [User, User];
      first.verifyEmail(at(3));
      expect(await storage.users.save(first, record(first))).to.equal(true);
      expect(second.cancelSignUp('not_me', at(4))).to.equal(true);
      expect(await storage.users.erase(second, record(second)), 'loaded before the verification').to.equal(false);
      expect(await storage.users.findById(kept.id)).to.not.equal(null);
      expect(await storage.users.unverifiedBefore(at(1), 10_000), 'verified').to.not.include(kept.id);
    });

    it('refuses to save a user that was never added: false, writing nothing, no throw', async () => {
      const user = aUser();
      expect(await storage.users.save(user, record(user))).to.equal(false);
      expect(await storage.users.findById(user.id)).to.equal(null);
      expect(await eventsAbout(storage.store, { email: user.email.value, types: ['UserRegistered'], since: at(-1), limit: 10 })).to.deep.equal([]);
    });

    it('refuses to save an account erased since it was loaded (a confirm racing "not me" or the sweep): false, writing nothing, no throw', async () => {
      const user = aUser();
      await storage.users.add(user, record(user));
      const [erasing, verifying, signingIn] = [await storage.users.findById(user.id), await storage.users.findById(user.id), await storage.users.findById(user.id)] as [User, User, User];
      expect(erasing.cancelSignUp('not_me', at(1))).to.equal(true);
      expect(await storage.users.erase(erasing, record(erasing))).to.equal(true);

      verifying.verifyEmail(at(2));
      expect(await storage.users.save(verifying, record(verifying)), 'a change of state').to.equal(false);
      signingIn.recordSignIn(at(2));
      const opened = aSessionOf(signingIn, 2);
      expect(await storage.users.save(signingIn, [...record(signingIn), ...recordSession(opened)], opened), 'events only, with a session').to.equal(false);

      expect(await storage.users.findById(user.id)).to.equal(null);
      expect(await storage.userViews.findById(user.id)).to.equal(null);
      expect(await storage.sessions.findById(opened.id)).to.equal(null);
      expect(await storage.users.unverifiedBefore(at(10), 10_000)).to.not.include(user.id);
      const left = await storage.events.findByAggregate(user.id, { limit: 10, cursor: null });
      expect(left.events.map((event) => event.type)).to.deep.equal(['SignUpCancelled']);
    });
  });
}

/** The behaviour every EventLog adapter must share. */
export function eventLogContract(adapter: string, makeStorage: StorageFactory): void {
  describe(`EventLog contract: ${adapter}`, () => {
    let storage: StorageUnderTest;
    beforeEach(async () => (storage = await makeStorage()));
    afterEach(async () => storage.dispose());

    it('returns an empty list for an address with no events', async () => {
      expect(await eventsAbout(storage.store, { email: 'nobody@example.com', types: ['SignInFailed'], since: at(0), limit: 5 })).to.deep.equal([]);
    });

    it('returns events newest first, with their metadata and time intact', async () => {
      const email = `${uniqueId('log')}@example.com`;
      const events = [failure(email, 1), failure(email, 2), failure(email, 3)];
      await storage.events.append(events);
      const found = await eventsAbout(storage.store, { email, types: ['SignInFailed'], since: at(0), limit: 10 });
      expect(found).to.deep.equal([...events].reverse());
      expect(found[0]?.occurredAt).to.be.instanceOf(Date);
    });

    it('filters by type, by time and by limit, and never mixes addresses', async () => {
      const email = `${uniqueId('log')}@example.com`;
      const other = `${uniqueId('other')}@example.com`;
      const user = aUser(email);
      await storage.users.add(user, record(user));
      await storage.events.append([failure(email, 1), failure(email, 5), failure(email, 6), failure(other, 7)]);

      const since5 = await eventsAbout(storage.store, { email, types: ['SignInFailed'], since: at(5), limit: 10 });
      expect(since5.map((event) => event.occurredAt.getTime())).to.deep.equal([at(6).getTime(), at(5).getTime()]);
      const limited = await eventsAbout(storage.store, { email, types: ['SignInFailed'], since: at(0), limit: 1 });
      expect(limited.map((event) => event.occurredAt.getTime())).to.deep.equal([at(6).getTime()]);
      const registered = await eventsAbout(storage.store, { email, types: ['UserRegistered'], since: at(-1), limit: 10 });
      expect(registered.map((event) => event.type)).to.deep.equal(['UserRegistered']);
    });

    it('is idempotent by eventId, across calls and within one call', async () => {
      const email = `${uniqueId('idem')}@example.com`;
      const event = failure(email, 1);
      await storage.events.append([event, event]);
      await storage.events.append([event]);
      expect(await eventsAbout(storage.store, { email, types: ['SignInFailed'], since: at(0), limit: 10 })).to.have.length(1);
    });

    it('pages the events of one aggregate newest first, following cursors to the end', async () => {
      const user = aUser();
      await storage.users.add(user, record(user));
      const other = aUser();
      await storage.users.add(other, record(other));
      for (let minute = 1; minute <= 4; minute++) {
        for (const account of [user, other]) {
          const loaded = (await storage.users.findById(account.id)) as User;
          loaded.recordSignIn(at(minute));
          await storage.users.save(loaded, record(loaded));
        }
      }

      const first = await storage.events.findByAggregate(user.id, { limit: 2, cursor: null });
      expect(first.events.map((event) => event.occurredAt.getTime())).to.deep.equal([at(4).getTime(), at(3).getTime()]);
      expect(first.nextCursor).to.be.a('string');
      const second = await storage.events.findByAggregate(user.id, { limit: 2, cursor: first.nextCursor });
      expect(second.events.map((event) => event.occurredAt.getTime())).to.deep.equal([at(2).getTime(), at(1).getTime()]);
      const third = await storage.events.findByAggregate(user.id, { limit: 2, cursor: second.nextCursor });
      expect(third.events.map((event) => event.type)).to.deep.equal(['UserRegistered']);
      expect(third.nextCursor).to.equal(null);
      const all = [...first.events, ...second.events, ...third.events];
      expect(all.every((event) => event.aggregateId === user.id)).to.equal(true);
    });

    it('gives an empty last page without a cursor for an unknown aggregate, or an exact fit', async () => {
      expect(await storage.events.findByAggregate('no-such-aggregate', { limit: 5, cursor: null })).to.deep.equal({ events: [], nextCursor: null });
      const user = aUser();
      await storage.users.add(user, record(user));
      const page = await storage.events.findByAggregate(user.id, { limit: 1, cursor: null });
      expect(page.events).to.have.length(1);
      expect(page.nextCursor).to.equal(null);
    });

    it('refuses a cursor it did not issue', async () => {
      const error = await rejection(storage.events.findByAggregate('any', { limit: 5, cursor: 'not-a-cursor' }));
      expect(error).to.be.instanceOf(InvalidCursor);
    });
  });
}

/** Every store reports itself healthy while it can write, and refuses once its store is gone. */
export function storeHealthContract(adapter: string, makeStorage: StorageFactory): void {
  describe(`StoreHealth contract: ${adapter}`, () => {
    it('resolves while the store is open, and rejects with ServiceUnavailable(store_unavailable) once it is closed', async () => {
      const storage = await makeStorage();
      try {
        await storage.health.check();
        await storage.closeStore();
        const failure = await rejection(storage.health.check());
        expect(failure).to.be.instanceOf(ServiceUnavailable).and.include({ reason: 'store_unavailable' });
      } finally {
        await storage.dispose();
      }
    });

    it('keeps the personal-data key\'s fingerprint: simultaneous start-up checks with one key all pass, one record is written and read back', async () => {
      const storage = await makeStorage();
      try {
        const checks = await Promise.allSettled(Array.from({ length: 5 }, () => storage.verifyKeys()));
        expect(checks.map((check) => check.status)).to.deep.equal(Array(5).fill('fulfilled'));
        const stored = await storage.store.get(KEY_CHECK, KEY_CHECK_ID);
        expect(stored?.value.fingerprint).to.match(/^[A-Za-z0-9_-]{43}$/);
        await storage.verifyKeys();
        expect((await storage.store.get(KEY_CHECK, KEY_CHECK_ID))?.version, 'checked again, not written again').to.equal(stored?.version);
      } finally {
        await storage.dispose();
      }
    });

    it('closes once the commits it let in have settled, and refuses the reads and commits that come after (503), never crashing', async () => {
      const storage = await makeStorage();
      const NOTES: Table<{ readonly n: number }> = { name: 'contract-closing', indexes: { all: () => [] }, owner: { none: 'a contract test table' } };
      try {
        const key = (n: number) => `${randomUUID()}-${n}`;
        const commits = Array.from({ length: 40 }, (_, n) => storage.store.commit({ changes: [put(NOTES, key(n), { n }, null)] }));
        const reads = Array.from({ length: 40 }, (_, n) => storage.store.range(NOTES, 'all', { prefix: [], limit: n + 1 }));
        const closed = storage.closeStore();
        // What a request whose client went away may still do while the service stops: read, count and commit.
        const late = await Promise.all([
          rejection(storage.store.get(NOTES, key(0))),
          rejection(storage.store.range(NOTES, 'all', { prefix: [], limit: 1 })),
          rejection(storage.store.count(NOTES, 'all', [])),
          rejection(storage.store.commit({ changes: [put(NOTES, key(99), { n: 99 }, null)] })),
        ]);
        for (const failure of late) expect(failure).to.be.instanceOf(ServiceUnavailable).and.include({ reason: 'store_unavailable' });
        expect((await Promise.all(commits)).map((outcome) => outcome.status)).to.deep.equal(commits.map(() => 'committed'));
        expect(await Promise.all(reads)).to.have.length(40);
        await closed;
        // lmdb-js renews and resets its read transaction on timers: an exception there would fail this test.
        await new Promise((resolve) => setTimeout(resolve, 50));
      } finally {
        await storage.dispose();
      }
    });
  });
}
