import { expect } from 'chai';
import { aHolderProof, aRequestMetadata, aSignInCommand, aSignUpCommand, completedSignIn } from '../../../../tests/support/builders.js';
import { inMemoryWorld } from '../../../../tests/support/in-memory-world.js';
import { verifiedSignUp, verifyAddress } from '../../../../tests/support/verified.js';

const metadata = aRequestMetadata();

describe('IntrospectTokenHandler (introspectToken)', () => {
  it('answers a live access token active with its claims, and inactive at once after its sign-out', async () => {
    const world = await inMemoryWorld();
    const { signedUp, principal } = await verifiedSignUp(world);
    const live = await world.introspectToken.execute({ token: signedUp.accessToken });
    expect(live).to.deep.include({ active: true, sub: signedUp.user.id, sid: principal.sessionId, token_type: 'Bearer' });
    await world.signOut.execute({ principal, scope: 'local', metadata });
    expect(await world.introspectToken.execute({ token: signedUp.accessToken })).to.deep.equal({ active: false });
  });

  it('answers inactive for garbage, a refresh token, an empty string, and the token of a deleted account', async () => {
    const world = await inMemoryWorld();
    const { signedUp, principal } = await verifiedSignUp(world);
    for (const token of ['', 'garbage', 'a.b.c', signedUp.refreshToken, 'x'.repeat(10_000)]) {
      expect(await world.introspectToken.execute({ token }), token.slice(0, 12)).to.deep.equal({ active: false });
    }
    await world.deleteAccount.execute(aHolderProof(principal));
    expect(await world.introspectToken.execute({ token: signedUp.accessToken })).to.deep.equal({ active: false });
  });

  it('with REQUIRE_VERIFIED_EMAIL, answers inactive for the token of an unproven account, as a bearer request refuses it', async () => {
    const world = await inMemoryWorld({ mail: { requireVerifiedEmail: true } });
    const squatter = await world.signUp.execute(aSignUpCommand({ email: 'squatter@example.com' }));
    expect(await world.introspectToken.execute({ token: squatter.accessToken })).to.deep.equal({ active: false });
    await verifyAddress(world, squatter.user.id);
    const signedIn = await completedSignIn(world.signIn.execute(aSignInCommand({ email: 'squatter@example.com' })));
    expect(await world.introspectToken.execute({ token: signedIn.accessToken }), 'once proven').to.deep.include({ active: true });
  });
});
