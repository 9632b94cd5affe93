import { expect } from 'chai';
import { InvalidInput } from '../../../../domain/domain-error.js';
import { ProviderNotFound } from '../../errors.js';
import { inMemoryWorld } from '../../../../../tests/support/in-memory-world.js';
import { rejection } from '../../../../../tests/support/rejection.js';
import { APP_URL, aFlowRequest, aPkcePair, returned, stateOf } from '../../../../../tests/support/social.js';

describe('BeginOAuthHandler (beginOauth)', () => {
  it("answers the provider's authorization URL with a new state, and keeps the flow for its callback", async () => {
    const world = await inMemoryWorld();
    const { location } = await world.beginOauth.execute(aFlowRequest(aPkcePair().challenge));
    expect(location.startsWith(`${world.providers.issuerOf('corp')}/authorize?`)).to.equal(true);
    const state = stateOf(location);
    expect(state).to.have.length(43);
    expect(stateOf((await world.beginOauth.execute(aFlowRequest(aPkcePair().challenge))).location)).to.not.equal(state);
  });

  it('refuses an unknown provider (404)', async () => {
    const world = await inMemoryWorld();
    expect(await rejection(world.beginOauth.execute(aFlowRequest(aPkcePair().challenge, { provider: 'nope' })))).to.be.instanceOf(ProviderNotFound);
  });

  it('refuses every return URL but the allowed ones, matched exactly: look-alike hosts, ports, paths, user info, fragments', async () => {
    const world = await inMemoryWorld();
    const refused = [
      'https://app.example.evil/signed-in', 'https://evil.app.example/signed-in', 'https://app.example:8443/signed-in', 'http://app.example/signed-in',
      'https://app.example/signed-in/../admin', 'https://app.example/signed-inx', 'https://app.example/signed-in/x', 'https://ada@app.example/signed-in',
      'https://app.example/signed-in#x', '//app.example/signed-in', 'javascript:alert(1)', '', 42,
    ];
    for (const redirectTo of refused) {
      const error = await rejection(world.beginOauth.execute(aFlowRequest(aPkcePair().challenge, { redirectTo })));
      expect(error, String(redirectTo)).to.be.instanceOf(InvalidInput);
      expect((error as InvalidInput).issues.map((issue) => issue.field), String(redirectTo)).to.deep.equal(['redirect_to']);
    }
    for (const redirectTo of [`${APP_URL}?tab=security`, 'com.example.app:/done']) {
      expect((await world.beginOauth.execute(aFlowRequest(aPkcePair().challenge, { redirectTo }))).location, redirectTo).to.include('state=');
    }
  });

  it("refuses a missing or malformed PKCE challenge, or a method other than S256, with every issue at once", async () => {
    const world = await inMemoryWorld();
    for (const [codeChallenge, codeChallengeMethod, fields] of [
      [undefined, 'S256', ['code_challenge']], ['a'.repeat(42), 'S256', ['code_challenge']], ['a'.repeat(129), 'S256', ['code_challenge']],
      [`${'a'.repeat(42)}=`, 'S256', ['code_challenge']], [aPkcePair().challenge, 'plain', ['code_challenge_method']], [aPkcePair().challenge, undefined, ['code_challenge_method']],
    ] as const) {
      const error = await rejection(world.beginOauth.execute(aFlowRequest(String(codeChallenge), { codeChallenge, codeChallengeMethod, redirectTo: 'https://evil.example/' })));
      expect((error as InvalidInput).issues.map((issue) => issue.field), String(codeChallenge)).to.deep.equal(['redirect_to', ...fields]);
    }
  });

  it('sends the app back with error=temporarily_unavailable while the provider cannot be reached, its own query kept', async () => {
    const world = await inMemoryWorld();
    world.providers.down('corp');
    const { location } = await world.beginOauth.execute(aFlowRequest(aPkcePair().challenge, { redirectTo: `${APP_URL}?tab=security` }));
    expect(location.startsWith(`${APP_URL}?`)).to.equal(true);
    expect(returned(location)).to.deep.equal({ tab: 'security', error: 'temporarily_unavailable' });
  });
});
