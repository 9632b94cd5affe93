import { expect } from 'chai';
import type { OAuthCode, OAuthFlow } from '../../src/application/social-sign-in/ports/oauth-flow-repository.port.js';
import { StoreOAuthFlowRepository } from '../../src/infrastructure/social-sign-in/store-oauth-flow.repository.js';
import type { StorageFactory, StorageUnderTest } from './storage.contract.js';

const T0 = new Date('2026-11-28T12:00:00.000Z');
let counter = 0;
const uniqueId = (prefix: string) => `${prefix}-${process.pid}-${Date.now()}-${++counter}`;

const aFlow = (linkTo: OAuthFlow['linkTo'] = null): OAuthFlow => ({
  id: uniqueId('flow'), provider: 'corp', redirectTo: 'https://app.example.com/cb?tab=1', codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  linkTo, createdAt: T0, expiresAt: new Date(T0.getTime() + 600_000),
});

const aCode = (userId: string): OAuthCode => ({
  id: uniqueId('code'), userId, identityId: uniqueId('identity'), provider: 'corp', codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', epoch: 3,
  createdAt: T0, expiresAt: new Date(T0.getTime() + 60_000),
});

/** Every store, through the one repository written over the storage primitive: social sign-in's flows and codes. */
export function oauthFlowContract(adapter: string, makeStorage: StorageFactory): void {
  describe(`OAuthFlowRepository contract: ${adapter}`, () => {
    let storage: StorageUnderTest;
    let flows: StoreOAuthFlowRepository;
    beforeEach(async () => {
      storage = await makeStorage();
      flows = new StoreOAuthFlowRepository(storage.store);
    });
    afterEach(async () => storage.dispose());

    it('gives a flow back whole once, then null; an unknown one is null', async () => {
      const flow = aFlow({ userId: uniqueId('u'), sessionId: uniqueId('s') });
      await flows.open(flow);
      expect(await flows.take(flow.id)).to.deep.equal(flow);
      expect(await flows.take(flow.id), 'taken already').to.equal(null);
      expect(await flows.take(uniqueId('flow'))).to.equal(null);
    });

    it('gives a flow to exactly one of 100 simultaneous takes (a replayed callback)', async () => {
      const flow = aFlow();
      await flows.open(flow);
      const taken = await Promise.all(Array.from({ length: 100 }, () => flows.take(flow.id)));
      expect(taken.filter((value) => value !== null)).to.deep.equal([flow]);
    });

    it('redeems a code once, for exactly one of 100 simultaneous redemptions, with the events of its callback stored', async () => {
      const code = aCode(uniqueId('u'));
      await flows.issue(code, []);
      const redeemed = await Promise.all(Array.from({ length: 100 }, () => flows.redeem(code.id)));
      expect(redeemed.filter((value) => value !== null)).to.deep.equal([code]);
      expect(await flows.redeem(code.id)).to.equal(null);
    });

    it("gives a link code back whole: the identity it links and the provider's address", async () => {
      const code: OAuthCode = { ...aCode(uniqueId('u')), link: { sessionId: uniqueId('s'), issuer: 'https://corp.example', subject: 'sub-1' }, email: 'ada@corp.example' };
      await flows.issue(code, []);
      expect(await flows.redeem(code.id)).to.deep.equal(code);
    });
  });
}
