import { expect } from 'chai';
import type { RecordedEvent } from '../../src/application/ports/event-log.port.js';
import { IDENTITIES_PER_ACCOUNT_MAX } from '../../src/application/social-sign-in/ports/identity-repository.port.js';
import type { IdentitySnapshot } from '../../src/domain/social-sign-in/identity.js';
import { schemaOf } from '../../src/infrastructure/storage/ownership.js';
import { CAPABILITIES } from '../../src/capabilities/index.js';
import { StoreIdentityRepository } from '../../src/infrastructure/social-sign-in/store-identity.repository.js';
import { type StorageFactory, type StorageUnderTest, aUser } from './storage.contract.js';
import { EmailAlreadyRegistered } from '../../src/domain/domain-error.js';
import { StoreUserRepository } from '../../src/infrastructure/storage/store-user.repository.js';
import { rejection } from '../support/rejection.js';

const T0 = new Date('2026-11-28T12:00:00.000Z');
let counter = 0;
const uniqueId = (prefix: string) => `${prefix}-${process.pid}-${Date.now()}-${++counter}`;
const NONE: readonly RecordedEvent[] = [];
const ISSUER = 'https://accounts.example.com';

const anIdentity = (userId: string, subject = uniqueId('sub'), at = T0): IdentitySnapshot => ({
  id: uniqueId('identity'), userId, provider: 'corp', issuer: ISSUER, subject, email: 'ada@example.com', createdAt: at,
});

/** Every store, through the one repository written over the storage primitive: provider identities. */
export function identityContract(adapter: string, makeStorage: StorageFactory): void {
  describe(`IdentityRepository contract: ${adapter}`, () => {
    let storage: StorageUnderTest;
    let identities: StoreIdentityRepository;
    beforeEach(async () => {
      storage = await makeStorage();
      identities = new StoreIdentityRepository(storage.store, schemaOf(CAPABILITIES));
    });
    afterEach(async () => storage.dispose());

    it('stores an identity whole, finds it by issuer and subject only, and lists an account\'s oldest first', async () => {
      const ada = uniqueId('u');
      const first = anIdentity(ada);
      expect(await identities.add(first, NONE)).to.equal('linked');
      const second = anIdentity(ada, uniqueId('sub'), new Date(T0.getTime() + 1000));
      await identities.add({ ...second, issuer: 'https://github.com' }, NONE);
      expect(await identities.findBySubject(ISSUER, first.subject)).to.deep.equal({ ...first, version: 0 });
      expect(await identities.findBySubject('https://github.com', first.subject), 'another issuer, the same subject').to.equal(null);
      expect((await identities.listByUser(ada)).map((identity) => identity.createdAt)).to.deep.equal([T0, second.createdAt]);
    });

    it('links an (issuer, subject) to one account only: of 10 simultaneous links by two accounts exactly one is stored', async () => {
      const [ada, grace] = [uniqueId('u'), uniqueId('u')];
      const subject = uniqueId('sub');
      const outcomes = await Promise.all(Array.from({ length: 10 }, (_, i) => identities.add(anIdentity(i % 2 === 0 ? ada : grace, subject), NONE)));
      expect(outcomes.filter((outcome) => outcome === 'linked')).to.have.length(1);
      const holder = (await identities.findBySubject(ISSUER, subject))?.userId;
      expect([ada, grace]).to.include(holder);
      expect((await identities.listByUser(holder === ada ? grace : ada))).to.deep.equal([]);
    });

    it('makes an account with its identity in one commit: of 6 simultaneous makings with one identity, one account and one identity are stored', async () => {
      const subject = uniqueId('sub');
      const users = Array.from({ length: 6 }, () => aUser());
      const outcomes = await Promise.all(users.map((user) => identities.addWithAccount(user, anIdentity(user.id, subject), NONE, []).then(() => 'made', (error: unknown) => error)));
      expect(outcomes.filter((outcome) => outcome === 'made')).to.have.length(1);
      expect(outcomes.filter((outcome) => outcome instanceof EmailAlreadyRegistered)).to.have.length(5);
      const winner = users[outcomes.indexOf('made')];
      expect((await identities.findBySubject(ISSUER, subject))?.userId).to.equal(winner?.id);
      const accounts = new StoreUserRepository(storage.store);
      const stored = await Promise.all(users.map((user) => accounts.findById(user.id)));
      expect(stored.filter((user) => user !== null).map((user) => user?.id), 'no account without its identity').to.deep.equal([winner?.id]);
      const taken = aUser(winner?.email.value);
      expect(await rejection(identities.addWithAccount(taken, anIdentity(taken.id), NONE, [])), 'an address taken: no identity either').to.be.instanceOf(EmailAlreadyRegistered);
      expect(await identities.listByUser(taken.id)).to.deep.equal([]);
    });

    it('unlinks at the version read only, and frees the identity for a new link', async () => {
      const ada = uniqueId('u');
      const identity = anIdentity(ada);
      await identities.add(identity, NONE);
      await identities.add(anIdentity(ada, uniqueId('sub')), NONE);
      const stored = await identities.findBySubject(ISSUER, identity.subject);
      expect(stored && (await identities.remove({ ...stored, version: 7 }, NONE)), 'a stale version').to.equal('changed');
      expect(await identities.findOwn(uniqueId('u'), identity.id), "another account's").to.equal(null);
      expect((await identities.findOwn(ada, identity.id))?.subject).to.equal(identity.subject);
      expect(stored && (await identities.remove(stored, NONE))).to.equal('removed');
      expect((await identities.listByUser(ada)).map((left) => left.subject)).to.not.include(identity.subject);
      expect(await identities.add(anIdentity(uniqueId('u'), identity.subject), NONE), 'free again').to.equal('linked');
    });

    it('keeps the last way in: of simultaneous unlinks of every identity of an account with nothing else, one stays', async () => {
      const ada = uniqueId('u');
      const linked = Array.from({ length: 6 }, (_, i) => anIdentity(ada, uniqueId('sub'), new Date(T0.getTime() + i)));
      for (const identity of linked) await identities.add(identity, NONE);
      const stored = await identities.listByUser(ada);
      const outcomes = await Promise.all(stored.map((identity) => identities.remove(identity, NONE)));
      expect(outcomes.filter((outcome) => outcome === 'removed')).to.have.length(5);
      expect(outcomes.filter((outcome) => outcome === 'last')).to.have.length(1);
      expect(await identities.listByUser(ada)).to.have.length(1);
    });

    it('caps an account at IDENTITIES_PER_ACCOUNT_MAX, exactly under simultaneous links', async () => {
      const ada = uniqueId('u');
      const outcomes = await Promise.all(Array.from({ length: IDENTITIES_PER_ACCOUNT_MAX + 5 }, () => identities.add(anIdentity(ada), NONE)));
      expect(outcomes.filter((outcome) => outcome === 'linked')).to.have.length(IDENTITIES_PER_ACCOUNT_MAX);
      expect(outcomes.filter((outcome) => outcome === 'full')).to.have.length(5);
    });
  });
}
