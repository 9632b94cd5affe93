import { expect } from 'chai';
import { InvalidInput } from '../../../../domain/domain-error.js';
import type { Principal } from '../../../shared/principal.js';
import { EmailNotVerified, RecentSignInRequired, StepUpRequired } from '../../../errors.js';
import { ProviderNotFound } from '../../errors.js';
import { inMemoryWorld } from '../../../../../tests/support/in-memory-world.js';
import { aHolderProof, aRequestMetadata, aSignUpCommand, completedSignIn } from '../../../../../tests/support/builders.js';
import { rejection } from '../../../../../tests/support/rejection.js';
import { aFlowRequest, aPkcePair, reauthenticated, returned, socialSignIn, stateOf, throughProvider } from '../../../../../tests/support/social.js';
import { withSecondFactor } from '../../../../../tests/support/totp.js';
import { verifiedSignUp } from '../../../../../tests/support/verified.js';

const linkRequest = (principal: Principal, password?: string) => ({ ...aFlowRequest(aPkcePair().challenge), ...aHolderProof(principal, password) });

describe('LinkIdentityHandler (linkIdentity)', () => {
  it("links the identity that comes back to the caller's account, whatever address it shows, and signs that account in", async () => {
    const world = await inMemoryWorld();
    const { signedUp, principal } = await verifiedSignUp(world);
    const { exchanged } = await throughProvider(world, { subject: 'ada-gh', email: 'countess@elsewhere.example' }, { link: principal });
    if (!exchanged) throw new Error('the link flow ended without a code');
    const signedIn = await completedSignIn(Promise.resolve(exchanged));
    expect(signedIn.user.id).to.equal(signedUp.user.id);
    expect((await world.identities.listByUser(signedUp.user.id)).map((identity) => identity.email)).to.deep.equal(['countess@elsewhere.example']);
    expect(world.store.capabilityEvents.filter((event) => event.type === 'IdentityLinked')).to.have.length(1);
  });

  it('links nothing until the exchange with the flow\'s verifier: another verifier spends the code and links nothing', async () => {
    const world = await inMemoryWorld();
    const { signedUp, principal } = await verifiedSignUp(world);
    const request = aFlowRequest(aPkcePair().challenge);
    const started = await world.linkIdentity.execute({ ...request, principal, currentPassword: 'analytical engine 1843', metadata: aRequestMetadata() });
    const back = await world.completeOauth.execute({ provider: 'corp', query: world.providers.signIn('corp', stateOf(started.location), { subject: 'csrf', email: 'victim@example.com' }), metadata: aRequestMetadata() });
    expect(await world.identities.listByUser(signedUp.user.id), 'the callback links nothing').to.deep.equal([]);
    const code = returned(back.location)['code'];
    expect(await rejection(world.redeemOauthCode.execute({ code, codeVerifier: aPkcePair().verifier, metadata: aRequestMetadata() }))).to.be.instanceOf(InvalidInput);
    expect(await world.identities.listByUser(signedUp.user.id)).to.deep.equal([]);
    expect(world.store.capabilityEvents.filter((event) => event.type === 'IdentityLinked')).to.deep.equal([]);
  });

  it('moves nothing when the identity is linked to another account: identity_in_use', async () => {
    const world = await inMemoryWorld();
    await socialSignIn(world, { subject: 'shared', email: 'grace@example.com' });
    const { principal, signedUp } = await verifiedSignUp(world);
    expect((await throughProvider(world, { subject: 'shared', email: 'grace@example.com' }, { link: principal })).params).to.deep.equal({ error: 'identity_in_use' });
    expect(await world.identities.listByUser(signedUp.user.id)).to.deep.equal([]);
  });

  it('asks what every new credential asks, before any flow starts: a verified address, the current password, the step-up', async () => {
    const world = await inMemoryWorld();
    const unverified = await world.signUp.execute(aSignUpCommand({ email: 'eve@example.com' }));
    const evePrincipal = await world.authenticate.execute({ accessToken: unverified.accessToken });
    expect(await rejection(world.linkIdentity.execute(linkRequest(evePrincipal)))).to.be.instanceOf(EmailNotVerified);
    const { principal } = await verifiedSignUp(world);
    const wrong = await rejection(world.linkIdentity.execute(linkRequest(principal, 'not the password')));
    expect((wrong as InvalidInput).issues).to.deep.equal([{ field: 'currentpassword', code: 'INCORRECT', message: 'is incorrect' }]);
    expect(await rejection(world.linkIdentity.execute({ ...linkRequest(principal), provider: 'nope' }))).to.be.instanceOf(ProviderNotFound);
    const factor = await withSecondFactor();
    const refused = await rejection(factor.world.linkIdentity.execute({ ...aFlowRequest(aPkcePair().challenge), ...aHolderProof(factor.passwordOnly) }));
    expect(refused).to.be.instanceOf(StepUpRequired);
    const { principal: steppedUp } = await factor.steppedUp();
    expect((await factor.world.linkIdentity.execute({ ...aFlowRequest(aPkcePair().challenge), ...aHolderProof(steppedUp) })).location).to.include('state=');
  });

  it('asks an account without a password for a proof made for this request, never the age of its token', async () => {
    const world = await inMemoryWorld();
    const ada = { subject: 'ada-1', email: 'ada@example.com' };
    const signedIn = await completedSignIn(socialSignIn(world, ada));
    const principal = await world.authenticate.execute({ accessToken: signedIn.accessToken });
    expect(await rejection(world.linkIdentity.execute(linkRequest(principal, ''))), 'a token seconds old proves nothing').to.be.instanceOf(RecentSignInRequired);
    const forDeletion = await reauthenticated(world, principal, ada, 'delete-account');
    const wrongAction = await rejection(world.linkIdentity.execute({ ...linkRequest(principal, ''), oauthCode: forDeletion.oauthCode, codeVerifier: forDeletion.codeVerifier }));
    expect((wrongAction as InvalidInput).issues).to.deep.equal([{ field: 'oauthcode', code: 'INVALID_OR_EXPIRED', message: 'is invalid, expired or already used' }]);
    const proof = await reauthenticated(world, principal, ada, 'link-identity');
    const stranger = await reauthenticated(world, principal, { subject: 'someone-else' }, 'link-identity');
    expect(stranger.params, "another provider account is no proof of this account's holder").to.deep.equal({ error: 'access_denied' });
    expect((await world.linkIdentity.execute({ ...linkRequest(principal, ''), ...proof })).location).to.include('state=');
    expect(await rejection(world.linkIdentity.execute({ ...linkRequest(principal, ''), ...proof })), 'one use').to.be.instanceOf(InvalidInput);
    const exchanged = await rejection(world.redeemOauthCode.execute({ code: (await reauthenticated(world, principal, ada, 'link-identity')).oauthCode, codeVerifier: proof.codeVerifier, metadata: aRequestMetadata() }));
    expect(exchanged, 'a re-authentication code signs nobody in').to.be.instanceOf(InvalidInput);
  });
});
