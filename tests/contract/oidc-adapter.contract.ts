import { expect } from 'chai';
import { ClientSecretBox, StoreOidcAdapter, lookupKey } from '../../src/infrastructure/oidc-provider/store-oidc-adapter.js';
import { OIDC_ACCOUNT_STATE, OIDC_CLIENTS, OIDC_STATE } from '../../src/infrastructure/oidc-provider/oidc-tables.js';
import type { StorageFactory, StorageUnderTest } from './storage.contract.js';

class UsedCode extends Error {}

let counter = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${Date.now()}-${++counter}`;

/** Every store, through the OpenID provider's storage (oidc-provider's Adapter) written over the storage primitive. */
export function oidcAdapterContract(adapter: string, makeStorage: StorageFactory): void {
  describe(`OpenID provider storage contract: ${adapter}`, () => {
    let storage: StorageUnderTest;
    let now = Date.parse('2026-12-07T10:00:00.000Z');
    let epoch: number | null = 0;
    const box = new ClientSecretBox(Buffer.alloc(32, 7));
    const model = (name: string) => new StoreOidcAdapter(storage.store, name, box, UsedCode, async () => epoch, () => now);
    beforeEach(async () => {
      storage = await makeStorage();
      now = Date.parse('2026-12-07T10:00:00.000Z');
      epoch = 0;
    });
    afterEach(async () => storage.dispose());

    it('gives a record back as stored, keyed by a hash: the store holds no id that could be presented', async () => {
      const codes = model('AuthorizationCode');
      const id = unique('code');
      await codes.upsert(id, { accountId: 'acc-1', grantId: 'g-1', clientId: 'app' }, 60);
      expect(await codes.find(id)).to.deep.include({ accountId: 'acc-1', grantId: 'g-1', clientId: 'app' });
      expect(await storage.store.get(OIDC_ACCOUNT_STATE, id)).to.equal(null);
      const stored = await storage.store.get(OIDC_ACCOUNT_STATE, lookupKey('AuthorizationCode', id));
      expect(stored?.value.payload).to.be.a('string').and.not.include(id);
      expect(await model('AccessToken').find(id), 'another model').to.equal(undefined);
    });

    it("ends an account's records when its sessions end (its epoch moves), and keeps their epoch when the engine writes them again", async () => {
      const grants = model('Grant');
      const sessions = model('Session');
      const [grant, session, later] = [unique('grant'), unique('session'), unique('grant')];
      await grants.upsert(grant, { accountId: 'acc-e', clientId: 'app' }, 600);
      await sessions.upsert(session, { uid: 'su-1', accountId: 'acc-e' }, 600);
      await sessions.upsert(session, { uid: 'su-1', accountId: 'acc-e', authorizations: {} }, 600);
      expect(await grants.find(grant)).to.deep.include({ accountId: 'acc-e' });
      expect(await sessions.findByUid('su-1')).to.deep.include({ accountId: 'acc-e' });
      epoch = 1;
      // Written again after the epoch moved (the engine touches a session on each request): still of the old epoch.
      await sessions.upsert(session, { uid: 'su-1', accountId: 'acc-e', authorizations: { app: {} } }, 600);
      expect([await grants.find(grant), await sessions.find(session), await sessions.findByUid('su-1')]).to.deep.equal([undefined, undefined, undefined]);
      await grants.upsert(later, { accountId: 'acc-e', clientId: 'app' }, 600);
      expect(await grants.find(later), 'written in the new epoch').to.deep.include({ clientId: 'app' });
      epoch = null;
      expect(await grants.find(later), 'an account deleted or disabled').to.equal(undefined);
    });

    it("keeps a signed-in account's state as the account's, and moves a record there once it names one", async () => {
      const interactions = model('Interaction');
      const id = unique('interaction');
      await interactions.upsert(id, { uid: 'u-1' }, 600);
      expect(await storage.store.get(OIDC_STATE, lookupKey('Interaction', id))).to.not.equal(null);
      await interactions.upsert(id, { uid: 'u-1', accountId: 'acc-2' }, 600);
      expect(await storage.store.get(OIDC_STATE, lookupKey('Interaction', id))).to.equal(null);
      expect((await storage.store.get(OIDC_ACCOUNT_STATE, lookupKey('Interaction', id)))?.value.accountId).to.equal('acc-2');
      expect(await interactions.find(id)).to.deep.include({ accountId: 'acc-2' });
    });

    it('finds a session by its uid and a device code by its user code, each of its own model', async () => {
      const sessions = model('Session');
      await sessions.upsert(unique('session'), { uid: 'uid-7', accountId: 'acc-3' }, 600);
      expect(await sessions.findByUid('uid-7')).to.deep.include({ uid: 'uid-7' });
      expect(await model('Interaction').findByUid('uid-7')).to.equal(undefined);
      const devices = model('DeviceCode');
      await devices.upsert(unique('device'), { userCode: 'WDJB-MJHT' }, 600);
      expect(await devices.findByUserCode('WDJB-MJHT')).to.deep.include({ userCode: 'WDJB-MJHT' });
      expect(await devices.findByUserCode('XXXX-XXXX')).to.equal(undefined);
    });

    it('forgets a record once it expires, and destroys one on demand', async () => {
      const tokens = model('AccessToken');
      const [kept, gone] = [unique('at'), unique('at')];
      await tokens.upsert(kept, { accountId: 'acc-4' }, 60);
      await tokens.upsert(gone, { accountId: 'acc-4' }, 60);
      await tokens.destroy(gone);
      expect(await tokens.find(gone)).to.equal(undefined);
      expect(await tokens.find(kept)).to.not.equal(undefined);
      now += 61_000;
      expect(await tokens.find(kept), 'expired').to.equal(undefined);
    });

    it('consumes a code once: of 20 simultaneous consumes one wins, every other is refused as a used code', async () => {
      const codes = model('AuthorizationCode');
      const id = unique('code');
      await codes.upsert(id, { accountId: 'acc-5', grantId: 'g-5' }, 60);
      const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => codes.consume(id)));
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).to.have.length(1);
      for (const outcome of outcomes) if (outcome.status === 'rejected') expect(outcome.reason).to.be.instanceOf(UsedCode);
      expect((await codes.find(id))?.consumed).to.be.a('number');
    });

    it("revokes everything of a grant, of every model, and nothing of another grant's", async () => {
      const [code, token, other] = [unique('code'), unique('at'), unique('at')];
      await model('AuthorizationCode').upsert(code, { accountId: 'acc-6', grantId: 'g-6' }, 60);
      await model('RefreshToken').upsert(token, { accountId: 'acc-6', grantId: 'g-6' }, 600);
      await model('RefreshToken').upsert(other, { accountId: 'acc-6', grantId: 'g-other' }, 600);
      await model('RefreshToken').revokeByGrantId('g-6');
      expect(await model('AuthorizationCode').find(code)).to.equal(undefined);
      expect(await model('RefreshToken').find(token)).to.equal(undefined);
      expect(await model('RefreshToken').find(other)).to.not.equal(undefined);
    });

    it("keeps a client's secret sealed at rest and gives it back to the engine as registered", async () => {
      const clients = model('Client');
      const id = unique('client');
      await clients.upsert(id, { client_id: id, client_secret: 'a-very-secret-value', redirect_uris: ['https://app.example.com/cb'] });
      const stored = await storage.store.get(OIDC_CLIENTS, lookupKey('Client', id));
      expect(stored?.value.payload).to.be.a('string').and.not.include('a-very-secret-value');
      expect(await clients.find(id)).to.deep.include({ client_id: id, client_secret: 'a-very-secret-value' });
    });
  });
}
