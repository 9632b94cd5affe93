import { expect } from 'chai';
import type { RecordedEvent } from '../../src/application/ports/event-log.port.js';
import { PASSKEYS_PER_ACCOUNT_MAX } from '../../src/application/passkeys/ports/passkey-repository.port.js';
import { Passkey } from '../../src/domain/passkeys/passkey.js';
import { INDEX_COUNTS, indexCountKey } from '../../src/infrastructure/storage/commit-plan.js';
import { TEST_SCHEMA } from '../support/test-schema.js';
import { PASSKEYS, WEBAUTHN_CHALLENGES } from '../../src/infrastructure/passkeys/passkey-tables.js';
import { StorePasskeyRepository } from '../../src/infrastructure/passkeys/store-passkey.repository.js';
import { remove, sweepExpired } from '../../src/infrastructure/storage/store.js';
import type { StorageFactory, StorageUnderTest } from './storage.contract.js';

const T0 = new Date('2026-11-25T12:00:00.000Z');
const later = (ms: number) => new Date(T0.getTime() + ms);
let counter = 0;
const uniqueId = (prefix: string) => `${prefix}-${process.pid}-${Date.now()}-${++counter}`;
const NONE: readonly RecordedEvent[] = [];

const aPasskey = (userId: string, id = uniqueId('cred'), at = T0) =>
  Passkey.register({ id, userId, name: 'Laptop', publicKey: 'pQECAyYg', counter: 0, transports: ['internal'], backedUp: false, deviceType: 'singleDevice', createdAt: at });

/** Every store, through the one repository written over the storage primitive: passkeys and WebAuthn challenges. */
export function passkeyContract(adapter: string, makeStorage: StorageFactory): void {
  describe(`PasskeyRepository contract: ${adapter}`, () => {
    let storage: StorageUnderTest;
    let passkeys: StorePasskeyRepository;
    beforeEach(async () => {
      storage = await makeStorage();
      passkeys = new StorePasskeyRepository(storage.store, TEST_SCHEMA);
    });
    afterEach(async () => storage.dispose());

    it('stores a passkey whole, lists an account\'s oldest first, and holds a credential id for one account only, even under concurrency', async () => {
      const [ada, grace] = [uniqueId('u'), uniqueId('u')];
      const first = aPasskey(ada, uniqueId('cred'), T0);
      expect(await passkeys.add(first, NONE)).to.equal('added');
      await passkeys.add(aPasskey(ada, uniqueId('cred'), later(1000)), NONE);
      expect((await passkeys.find(first.id))?.snapshot()).to.deep.equal({ ...first.snapshot(), version: 0 });
      expect((await passkeys.listByUser(ada)).map((passkey) => passkey.snapshot().createdAt)).to.deep.equal([T0, later(1000)]);
      const contested = uniqueId('cred');
      const added = await Promise.all(Array.from({ length: 10 }, (_, i) => passkeys.add(aPasskey(i % 2 === 0 ? ada : grace, contested), NONE)));
      expect(added.filter((outcome) => outcome === 'added')).to.have.length(1);
      expect(added.filter((outcome) => outcome === 'taken')).to.have.length(9);
      expect(await passkeys.listByUser(grace)).to.have.length(added.indexOf('added') % 2 === 1 ? 1 : 0);
    });

    it('counts an account\'s passkeys in the commit that adds or removes one: of simultaneous adds at one below the cap, exactly one is stored', async () => {
      const ada = uniqueId('u');
      for (let i = 0; i < PASSKEYS_PER_ACCOUNT_MAX - 1; i++) expect(await passkeys.add(aPasskey(ada, uniqueId('cred'), later(i)), NONE)).to.equal('added');
      const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => passkeys.add(aPasskey(ada, uniqueId('cred'), later(100 + i)), NONE)));
      expect(outcomes.filter((outcome) => outcome === 'added'), JSON.stringify(outcomes)).to.have.length(1);
      expect(outcomes.filter((outcome) => outcome === 'full')).to.have.length(7);
      expect(await storage.store.count(PASSKEYS, 'byUser', [ada])).to.equal(PASSKEYS_PER_ACCOUNT_MAX);
      const [oldest] = await passkeys.listByUser(ada);
      expect(await passkeys.remove(oldest as Passkey, NONE)).to.equal('removed');
      expect(await passkeys.add(aPasskey(ada, uniqueId('cred'), later(200)), NONE), 'a removal frees a place').to.equal('added');
      expect(await passkeys.add(aPasskey(ada, uniqueId('cred'), later(201)), NONE)).to.equal('full');
    });

    it('counts the passkeys of an account stored before the count existed on its index, at its next add', async () => {
      const ada = uniqueId('u');
      for (let i = 0; i < PASSKEYS_PER_ACCOUNT_MAX; i++) await passkeys.add(aPasskey(ada, uniqueId('cred'), later(i)), NONE);
      const key = indexCountKey(PASSKEYS, 'byUser', [ada]);
      const count = await storage.store.get(INDEX_COUNTS, key);
      expect(count?.value).to.deep.equal({ count: PASSKEYS_PER_ACCOUNT_MAX });
      expect((await storage.store.commit({ changes: [remove(INDEX_COUNTS, key, count?.version ?? null)] })).status).to.equal('committed');
      expect(await passkeys.add(aPasskey(ada, uniqueId('cred'), later(100)), NONE)).to.equal('full');
      const [oldest] = await passkeys.listByUser(ada);
      expect(await passkeys.remove(oldest as Passkey, NONE)).to.equal('removed');
      expect((await storage.store.get(INDEX_COUNTS, key))?.value, 'counted again, from the index').to.deep.equal({ count: PASSKEYS_PER_ACCOUNT_MAX - 1 });
    });

    it('moves a counter on once: of two saves from one load exactly one writes; a removal holds at the loaded version only', async () => {
      const passkey = aPasskey(uniqueId('u'));
      await passkeys.add(passkey, NONE);
      const [a, b] = [await passkeys.find(passkey.id), await passkeys.find(passkey.id)] as [Passkey, Passkey];
      expect(a.used(5, true, T0) && b.used(5, true, T0)).to.equal(true);
      expect((await Promise.all([passkeys.save(a, NONE), passkeys.save(b, NONE)])).filter(Boolean)).to.have.length(1);
      expect(await passkeys.remove(b, NONE), 'loaded before the change').to.equal('changed');
      expect(await passkeys.remove((await passkeys.find(passkey.id)) as Passkey, NONE), 'the last way in').to.equal('last');
      await passkeys.add(aPasskey(passkey.userId), NONE);
      expect(await passkeys.remove((await passkeys.find(passkey.id)) as Passkey, NONE)).to.equal('removed');
      expect(await passkeys.find(passkey.id)).to.equal(null);
    });

    it('hands a challenge out once, to its own purpose only, and not once expired; sweeps the expired', async () => {
      const [challenge, stale] = [uniqueId('ch'), uniqueId('ch')];
      await passkeys.openChallenge({ challenge, purpose: 'registration', userId: 'u-1', expiresAt: later(60_000) });
      await passkeys.openChallenge({ challenge: stale, purpose: 'authentication', userId: null, expiresAt: later(1_000) });
      expect(await passkeys.takeChallenge(challenge, 'authentication', T0), 'the other ceremony').to.equal(null);
      const taken = await Promise.all(Array.from({ length: 10 }, () => passkeys.takeChallenge(challenge, 'registration', T0)));
      expect(taken.filter((entry) => entry !== null).map((entry) => entry?.userId)).to.deep.equal(['u-1']);
      expect(await passkeys.takeChallenge(stale, 'authentication', later(1_000)), 'expired').to.equal(null);
      expect(await sweepExpired(storage.store, WEBAUTHN_CHALLENGES, later(1_000).getTime(), 100)).to.be.at.least(1);
      expect(await passkeys.takeChallenge(stale, 'authentication', T0), 'swept').to.equal(null);
      expect(TEST_SCHEMA.expiringTables).to.include(WEBAUTHN_CHALLENGES);
    });
  });
}
