import { expect } from 'chai';
import { InvalidCredentials, InvalidInput } from '../../../../domain/domain-error.js';
import { needsSecondFactor } from '../../../shared/auth-result.js';
import { EmailNotVerified } from '../../../errors.js';
import { inMemoryWorld } from '../../../../../tests/support/in-memory-world.js';
import { aRequestMetadata, aSignInCommand, completedSignIn } from '../../../../../tests/support/builders.js';
import { rejection } from '../../../../../tests/support/rejection.js';
import { socialSignIn, throughProvider } from '../../../../../tests/support/social.js';
import { withSecondFactor } from '../../../../../tests/support/totp.js';
import { tokenIn } from '../../../../../tests/support/mail-world.js';

const metadata = aRequestMetadata();
const SPENT = [{ field: 'code', code: 'INVALID_OR_EXPIRED', message: 'is invalid, expired or already used' }];
const issuesOf = async (promise: Promise<unknown>) => ((await rejection(promise)) as InvalidInput).issues;

describe('RedeemOAuthCodeHandler (redeemOauthCode)', () => {
  it('signs the account in for the code and its verifier: a session whose amr is ["oauth"], SignedInWithProvider', async () => {
    const world = await inMemoryWorld();
    const signedIn = await completedSignIn(socialSignIn(world, { subject: 'ada-1', email: 'ada@example.com' }));
    expect(signedIn.user).to.deep.include({ email: 'ada@example.com', emailverified: true });
    const principal = await world.authenticate.execute({ accessToken: signedIn.accessToken });
    expect(principal.amr).to.deep.equal(['oauth']);
    const event = world.store.capabilityEvents.find((recorded) => recorded.type === 'SignedInWithProvider');
    expect(event?.payload).to.deep.include({ email: 'ada@example.com', provider: 'corp' });
  });

  it('spends the code at its first use: a replay, a wrong verifier (which spends it too) and a late code are refused', async () => {
    const world = await inMemoryWorld();
    const first = await throughProvider(world, { subject: 'ada-1' });
    await world.redeemOauthCode.execute({ code: first.params['code'], codeVerifier: first.verifier, metadata });
    expect(await issuesOf(world.redeemOauthCode.execute({ code: first.params['code'], codeVerifier: first.verifier, metadata }))).to.deep.equal(SPENT);
    const second = await throughProvider(world, { subject: 'ada-1' });
    expect(await issuesOf(world.redeemOauthCode.execute({ code: second.params['code'], codeVerifier: first.verifier, metadata }))).to.deep.equal([{ field: 'code_verifier', code: 'MISMATCH', message: 'does not match the code_challenge' }]);
    expect(await issuesOf(world.redeemOauthCode.execute({ code: second.params['code'], codeVerifier: second.verifier, metadata }))).to.deep.equal(SPENT);
    const third = await throughProvider(world, { subject: 'ada-1' });
    world.clock.advance(60_001);
    expect(await issuesOf(world.redeemOauthCode.execute({ code: third.params['code'], codeVerifier: third.verifier, metadata }))).to.deep.equal(SPENT);
    expect((await issuesOf(world.redeemOauthCode.execute({ code: 42, codeVerifier: '', metadata }))).map((issue) => issue.field)).to.deep.equal(['code', 'code_verifier']);
  });

  it('with REQUIRE_VERIFIED_EMAIL, refuses an account whose address nobody proved as a password sign-in does (EmailNotVerified)', async () => {
    const world = await inMemoryWorld({ mail: { requireVerifiedEmail: true } });
    const unproven = await throughProvider(world, { subject: 'unproven', email: 'unproven@example.com', emailVerified: false });
    expect(await rejection(world.redeemOauthCode.execute({ code: unproven.params['code'], codeVerifier: unproven.verifier, metadata }))).to.be.instanceOf(EmailNotVerified);
    expect(world.store.events.filter((event) => event.type === 'SessionStarted')).to.deep.equal([]);
    await completedSignIn(socialSignIn(world, { subject: 'proven', email: 'proven@example.com' }));
  });

  it('gives exactly one of 100 simultaneous exchanges of one code a session', async () => {
    const world = await inMemoryWorld();
    const { params, verifier } = await throughProvider(world, { subject: 'ada-1' });
    const outcomes = await Promise.allSettled(Array.from({ length: 100 }, () => world.redeemOauthCode.execute({ code: params['code'], codeVerifier: verifier, metadata })));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).to.have.length(1);
    expect(outcomes.filter((outcome) => outcome.status === 'rejected' && outcome.reason instanceof InvalidInput)).to.have.length(99);
  });

  it("does not skip the second factor: an account with one gets the password sign-in's challenge, and its answer an amr of oauth and otp", async () => {
    const { world, code } = await withSecondFactor();
    const outcome = await socialSignIn(world, { subject: 'ada-at-corp', email: 'ada@example.com' });
    expect(needsSecondFactor(outcome)).to.equal(true);
    if (!needsSecondFactor(outcome)) return;
    expect(outcome.methods).to.deep.equal(['totp', 'recovery_code']);
    const signedIn = await world.signInMfa.execute({ mfaToken: outcome.mfaToken, code: code(), metadata });
    expect((await world.authenticate.execute({ accessToken: signedIn.accessToken })).amr).to.deep.equal(['oauth', 'otp']);
  });

  it('answers a password sign-in of an account without a password exactly as a wrong password', async () => {
    const world = await inMemoryWorld();
    await socialSignIn(world, { subject: 'ada-1', email: 'ada@example.com' });
    const dummies = world.hasher.dummyVerifications;
    expect(await rejection(world.signIn.execute(aSignInCommand({ password: '' })))).to.be.instanceOf(InvalidInput);
    expect(await rejection(world.signIn.execute(aSignInCommand()))).to.be.instanceOf(InvalidCredentials);
    expect(world.hasher.dummyVerifications, 'as much hashing as a wrong password').to.equal(dummies + 1);
    expect(world.store.events.at(-1)).to.deep.include({ type: 'SignInFailed' });
  });

  it('lets a password reset give an account without a password one: then the password signs in too, and the identity still does', async () => {
    const world = await inMemoryWorld();
    await socialSignIn(world, { subject: 'ada-1', email: 'ada@example.com' });
    await world.requestPasswordReset.execute({ email: 'ada@example.com', metadata });
    await world.deliverMail.execute();
    const token = tokenIn(world.mail.delivered.find((mail) => mail.subject === 'Reset your password'));
    await world.confirmPasswordReset.execute({ token, newPassword: 'difference engine 1822', metadata });
    const byPassword = await completedSignIn(world.signIn.execute(aSignInCommand({ password: 'difference engine 1822' })));
    expect((await world.authenticate.execute({ accessToken: byPassword.accessToken })).amr).to.deep.equal(['pwd']);
    expect((await completedSignIn(socialSignIn(world, { subject: 'ada-1', email: 'ada@example.com' }))).user.id).to.equal(byPassword.user.id);
  });
});
