import { expect } from 'chai';
import { TooManyAttempts } from '../../../../domain/domain-error.js';
import { InvalidMfaCode, InvalidRefreshToken, MfaNotEnrolled, PasskeyRejected, StepUpRequired } from '../../../errors.js';
import { aRequestMetadata, aSignUpCommand, aHolderProof } from '../../../../../tests/support/builders.js';
import { verifiedSignUp } from '../../../../../tests/support/verified.js';
import { UuidShapedIds } from '../../../../../tests/support/fakes.js';
import { inMemoryWorld } from '../../../../../tests/support/in-memory-world.js';
import { rejection } from '../../../../../tests/support/rejection.js';
import { withSecondFactor } from '../../../../../tests/support/totp.js';

const NEW_PASSWORD = 'difference engine 1822';

describe('VerifyMfaHandler (verifyMfa): step-up', () => {
  it('refuses what needs step-up on a password-only session, grants it after a code, and refuses it again once MFA_STEP_UP_SECONDS passed', async () => {
    const { world, passwordOnly, code, metadata } = await withSecondFactor();
    const change = (principal: typeof passwordOnly) =>
      world.changePassword.execute({ principal, currentPassword: 'analytical engine 1843', newPassword: NEW_PASSWORD, metadata });
    expect(await rejection(change(passwordOnly)), 'password only').to.be.instanceOf(StepUpRequired);
    expect(await rejection(world.regenerateRecoveryCodes.execute({ principal: passwordOnly, metadata }))).to.be.instanceOf(StepUpRequired);
    expect(await rejection(world.signOut.execute({ principal: passwordOnly, scope: 'global', metadata }))).to.be.instanceOf(StepUpRequired);
    expect(await rejection(world.signOut.execute({ principal: passwordOnly, scope: 'others', metadata })), 'others too').to.be.instanceOf(StepUpRequired);

    const raised = await world.verifyMfa.execute({ principal: passwordOnly, code: code(), metadata });
    const principal = await world.authenticate.execute({ accessToken: raised.accessToken });
    expect(principal).to.deep.include({ sessionId: passwordOnly.sessionId, amr: ['pwd', 'otp'], authTime: world.clock.now() });
    expect(await rejection(change(passwordOnly)), 'the token issued before keeps what it said').to.be.instanceOf(StepUpRequired);
    world.clock.advance(301_000);
    expect(await rejection(change(principal)), 'too long ago').to.be.instanceOf(StepUpRequired);
    world.clock.advance(-2_000);
    expect((await change(principal)).email).to.equal('ada@example.com');
  });

  it('a refresh keeps the raised amr and auth_time: step-up is not renewed by refreshing', async () => {
    const { world, passwordOnly, code, metadata } = await withSecondFactor({ replace: { ids: new UuidShapedIds() } });
    const raised = await world.verifyMfa.execute({ principal: passwordOnly, code: code(), metadata });
    const at = world.clock.now();
    world.clock.advance(600_000);
    const refreshed = await world.refreshSession.execute({ refreshToken: raised.refreshToken, metadata });
    expect(await world.authenticate.execute({ accessToken: refreshed.accessToken })).to.deep.include({ amr: ['pwd', 'otp'], authTime: at });
    expect(await rejection(world.regenerateRecoveryCodes.execute({ principal: await world.authenticate.execute({ accessToken: refreshed.accessToken }), metadata }))).to.be.instanceOf(StepUpRequired);
  });

  it('accepts a recovery code once; refuses a used step (uncounted), a wrong code, and after 5 wrong ones on the session answers TooManyAttempts', async () => {
    const { world, passwordOnly, code, recoveryCodes, metadata } = await withSecondFactor({ signInThrottle: { maxFailures: 100, windowSeconds: 900 } });
    await world.verifyMfa.execute({ principal: passwordOnly, recoveryCode: recoveryCodes[0], metadata });
    expect(await rejection(world.verifyMfa.execute({ principal: passwordOnly, recoveryCode: recoveryCodes[0], metadata }))).to.be.instanceOf(InvalidMfaCode);
    await world.verifyMfa.execute({ principal: passwordOnly, code: code(), metadata });
    expect(await rejection(world.verifyMfa.execute({ principal: passwordOnly, code: code(), metadata })), 'the same step').to.be.instanceOf(InvalidMfaCode);
    const outcomes = await Promise.all(Array.from({ length: 12 }, () => rejection(world.verifyMfa.execute({ principal: passwordOnly, code: '000000', metadata }))));
    expect(outcomes.filter((error) => error instanceof InvalidMfaCode), 'the two replays above counted nowhere').to.have.length(5);
    expect(outcomes.filter((error) => error instanceof TooManyAttempts)).to.have.length(7);
  });

  it('an account without a factor needs no step-up, and has nothing to verify', async () => {
    const world = await inMemoryWorld();
    const metadata = aRequestMetadata();
    const up = await world.signUp.execute(aSignUpCommand());
    const principal = await world.authenticate.execute({ accessToken: up.accessToken });
    expect(await rejection(world.verifyMfa.execute({ principal, code: '123456', metadata }))).to.be.instanceOf(MfaNotEnrolled);
    await world.signOut.execute({ principal, scope: 'global', metadata });
  });

  it('a passkey of the account performs step-up too (amr gains webauthn), on options bound to the caller', async () => {
    const { world, passwordOnly, steppedUp, metadata } = await withSecondFactor();
    const { principal } = await steppedUp();
    const registration = String((await world.passkeyRegistrationOptions.execute(aHolderProof(principal)))['challenge']);
    const { id } = await world.addPasskey.execute({ principal, response: { id: 'ada-phone', challenge: registration }, metadata });
    const challenge = String((await world.passkeyAuthenticationOptions.execute({ principal: passwordOnly }))['challenge']);
    const raised = await world.verifyMfa.execute({ principal: passwordOnly, response: { id, challenge, counter: 1 }, metadata });
    const after = await world.authenticate.execute({ accessToken: raised.accessToken });
    expect(after.amr).to.deep.equal(['pwd', 'webauthn']);
    expect(await world.regenerateRecoveryCodes.execute({ principal: after, metadata })).to.have.property('recoveryCodes');
  });

  it('rotates the refresh token: the one from before the step-up is used up, and presenting it is a reuse that ends the session', async () => {
    const { world, passwordOnly, signedUp, code, metadata } = await withSecondFactor({ replace: { ids: new UuidShapedIds() } });
    const raised = await world.verifyMfa.execute({ principal: passwordOnly, code: code(), metadata });
    expect(raised.refreshToken).to.not.equal(signedUp.refreshToken);
    expect(await rejection(world.refreshSession.execute({ refreshToken: signedUp.refreshToken, metadata })), 'the copy from before').to.be.instanceOf(InvalidRefreshToken);
    expect(world.store.events.filter((event) => event.type === 'RefreshTokenReused')).to.have.length(1);
    expect(await rejection(world.refreshSession.execute({ refreshToken: raised.refreshToken, metadata })), 'the session ended with it').to.be.instanceOf(InvalidRefreshToken);
  });

  it("another account's passkey, valid and registered, performs no step-up: PasskeyRejected, the session still password-only", async () => {
    const { world, passwordOnly, metadata } = await withSecondFactor();
    const { principal: bob } = await verifiedSignUp(world, aSignUpCommand({ email: 'bob@example.com' }));
    const registration = String((await world.passkeyRegistrationOptions.execute(aHolderProof(bob)))['challenge']);
    const { id } = await world.addPasskey.execute({ principal: bob, response: { id: 'bob-phone', challenge: registration }, metadata });
    const options = async (principal: typeof bob | null) => String((await world.passkeyAuthenticationOptions.execute({ principal }))['challenge']);

    let counter = 0;
    for (const [label, principal] of [["Ada's step-up options", passwordOnly], ['sign-in options', null], ["options bound to Bob's account", bob]] as const) {
      const refused = await rejection(world.verifyMfa.execute({ principal: passwordOnly, response: { id, challenge: await options(principal), counter: ++counter }, metadata }));
      expect(refused, label).to.be.instanceOf(PasskeyRejected);
    }
    expect((await world.sessions.findById(passwordOnly.sessionId))?.snapshot().amr, 'the session was not raised').to.deep.equal(['pwd']);
    expect(await rejection(world.regenerateRecoveryCodes.execute({ principal: passwordOnly, metadata }))).to.be.instanceOf(StepUpRequired);
  });
});
