import { expect } from 'chai';
import { InvalidCredentials, InvalidInput, TooManyAttempts } from '../../../../domain/domain-error.js';
import { InvalidMfaCode, InvalidMfaToken, PasskeyRejected } from '../../../errors.js';
import { SESSIONS } from '../../../../infrastructure/storage/account-tables.js';
import { aSignInCommand, aSignUpCommand, aHolderProof } from '../../../../../tests/support/builders.js';
import { verifiedSignUp } from '../../../../../tests/support/verified.js';
import { issuesOf } from '../../../../../tests/support/mail-world.js';
import { rejection } from '../../../../../tests/support/rejection.js';
import { withSecondFactor } from '../../../../../tests/support/totp.js';

const THROTTLE_OUT_OF_THE_WAY = { signInThrottle: { maxFailures: 1000, windowSeconds: 900 } };

describe('SignInMfaHandler (signInMfa)', () => {
  it('an enrolled account: the right password answers a challenge and opens no session; a wrong one is the same InvalidCredentials', async () => {
    const { world, challenge } = await withSecondFactor();
    const sessionsBefore = world.tables.rowsOf(SESSIONS).length;
    const signedInBefore = world.store.events.filter((event) => event.type === 'UserSignedIn').length;
    const outcome = await world.signIn.execute(aSignInCommand());
    expect(outcome).to.have.all.keys('mfaToken', 'methods', 'expiresIn');
    expect(outcome).to.deep.include({ methods: ['totp', 'recovery_code'], expiresIn: 300 });
    expect(world.tables.rowsOf(SESSIONS)).to.have.length(sessionsBefore);
    expect(world.store.events.filter((event) => event.type === 'UserSignedIn')).to.have.length(signedInBefore);
    expect(await rejection(world.signIn.execute(aSignInCommand({ password: 'not the password' })))).to.be.instanceOf(InvalidCredentials);
    expect(await challenge()).to.match(/^mfa1\./);
  });

  it('a code completes it: a session with amr ["pwd","otp"], UserSignedIn; the challenge is single-use, the code too', async () => {
    const { world, challenge, code, metadata } = await withSecondFactor();
    const mfaToken = await challenge();
    const result = await world.signInMfa.execute({ mfaToken, code: code(), metadata });
    const principal = await world.authenticate.execute({ accessToken: result.accessToken });
    expect(principal.amr).to.deep.equal(['pwd', 'otp']);
    expect(principal.authTime).to.deep.equal(world.clock.now());
    expect(world.store.events.at(-2)?.type).to.equal('UserSignedIn');
    expect(await rejection(world.signInMfa.execute({ mfaToken, code: code(1), metadata })), 'the same challenge again').to.be.instanceOf(InvalidMfaToken);
    const replay = await rejection(world.signInMfa.execute({ mfaToken: await challenge(), code: code(), metadata }));
    expect(replay, 'the same code on a new challenge').to.be.instanceOf(InvalidMfaCode);
    expect(issuesOf(replay)).to.deep.equal([{ field: 'code', code: 'INCORRECT', message: 'is incorrect or already used' }]);
  });

  it('a recovery code completes it once (RecoveryCodeUsed with the count left, never the code); used again it is refused', async () => {
    const { world, challenge, recoveryCodes, metadata, userId } = await withSecondFactor();
    const recoveryCode = (recoveryCodes[3] ?? '').toUpperCase();
    const result = await world.signInMfa.execute({ mfaToken: await challenge(), recoveryCode, metadata });
    expect((await world.authenticate.execute({ accessToken: result.accessToken })).amr).to.deep.equal(['pwd', 'otp']);
    const used = world.store.capabilityEvents.filter((event) => event.type === 'RecoveryCodeUsed');
    expect(used.map((event) => [event.aggregateId, event.payload])).to.deep.equal([[userId, { email: 'ada@example.com', left: 9 }]]);
    expect(JSON.stringify(world.store.events)).to.not.include(recoveryCodes[3]);
    const again = await rejection(world.signInMfa.execute({ mfaToken: await challenge(), recoveryCode, metadata }));
    expect(issuesOf(again)).to.deep.equal([{ field: 'recoverycode', code: 'INCORRECT', message: 'is incorrect or already used' }]);
  });

  it('five wrong codes end the challenge: the sixth answer, even the right code, finds it ended; each wrong code is a SignInFailed', async () => {
    const { world, challenge, code, metadata } = await withSecondFactor(THROTTLE_OUT_OF_THE_WAY);
    const mfaToken = await challenge();
    for (let i = 0; i < 5; i++) expect(await rejection(world.signInMfa.execute({ mfaToken, code: '000000', metadata })), `wrong ${i + 1}`).to.be.instanceOf(InvalidMfaCode);
    expect(await rejection(world.signInMfa.execute({ mfaToken, code: code(), metadata }))).to.be.instanceOf(InvalidMfaToken);
    const failures = world.store.events.filter((event) => event.type === 'SignInFailed');
    expect(failures.map((event) => event.payload)).to.deep.equal(Array(5).fill({ email: 'ada@example.com', reason: 'wrong_code' }));
    expect(await world.signInMfa.execute({ mfaToken: await challenge(), code: code(), metadata })).to.have.property('accessToken');
  });

  it('of 20 simultaneous wrong codes on one challenge exactly 5 are counted; the rest find it ended', async () => {
    const { world, challenge, metadata } = await withSecondFactor(THROTTLE_OUT_OF_THE_WAY);
    const mfaToken = await challenge();
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => rejection(world.signInMfa.execute({ mfaToken, code: '123456', metadata }))));
    expect(outcomes.filter((error) => error instanceof InvalidMfaCode)).to.have.length(5);
    expect(outcomes.filter((error) => error instanceof InvalidMfaToken)).to.have.length(15);
    expect(world.store.events.filter((event) => event.type === 'SignInFailed')).to.have.length(5);
  });

  it('wrong codes count toward the account throttle across challenges: at its cap, sign-in answers TooManyAttempts', async () => {
    const { world, challenge, metadata } = await withSecondFactor({ signInThrottle: { maxFailures: 5, windowSeconds: 900 } });
    for (let i = 0; i < 5; i++) {
      const mfaToken = await challenge();
      expect(await rejection(world.signInMfa.execute({ mfaToken, code: '000000', metadata }))).to.be.instanceOf(InvalidMfaCode);
    }
    expect(await rejection(world.signIn.execute(aSignInCommand()))).to.be.instanceOf(TooManyAttempts);
  });

  it('refuses a challenge once expired, one not issued here, and one outlived by the end of every session (a password change, sign-out everywhere)', async () => {
    const { world, challenge, code, metadata } = await withSecondFactor();
    const late = await challenge();
    world.clock.advance(300_000);
    expect(await rejection(world.signInMfa.execute({ mfaToken: late, code: code(), metadata })), 'expired').to.be.instanceOf(InvalidMfaToken);
    expect(await rejection(world.signInMfa.execute({ mfaToken: `mfa1.${'A'.repeat(43)}`, code: code(), metadata })), 'forged').to.be.instanceOf(InvalidMfaToken);
    const pending = await challenge();
    const signedIn = await world.signInMfa.execute({ mfaToken: await challenge(), code: code(), metadata });
    const principal = await world.authenticate.execute({ accessToken: signedIn.accessToken });
    await world.signOut.execute({ principal, scope: 'global', metadata });
    world.clock.advance(30_000);
    expect(await rejection(world.signInMfa.execute({ mfaToken: pending, code: code(), metadata })), 'outlived').to.be.instanceOf(InvalidMfaToken);
  });

  it('asks for exactly one answer and the challenge: a code or a recovery code', async () => {
    const { world, challenge, code, metadata } = await withSecondFactor();
    const mfaToken = await challenge();
    expect(issuesOf(await rejection(world.signInMfa.execute({ mfaToken, metadata })))).to.deep.equal([{ field: 'code', code: 'ONE_OF_SEVERAL', message: 'send a code, a recovery code or a passkey answer (response)' }]);
    const both = await rejection(world.signInMfa.execute({ mfaToken, code: code(), recoveryCode: 'abcde-fghij', metadata }));
    expect(both).to.be.instanceOf(InvalidInput);
    expect(issuesOf(both)).to.deep.equal([{ field: 'code', code: 'ONE_OF_SEVERAL', message: 'send a code, a recovery code or a passkey answer (response), only one' }]);
    expect(issuesOf(await rejection(world.signInMfa.execute({ mfaToken: 42, code: code(), metadata })))[0]?.field).to.equal('mfatoken');
  });

  it('a passkey of the account answers the challenge too (amr ["pwd","webauthn"]); methods name it; another account\'s passkey is a wrong answer', async () => {
    const { world, challenge, metadata, steppedUp } = await withSecondFactor();
    const { principal } = await steppedUp();
    const registration = String((await world.passkeyRegistrationOptions.execute(aHolderProof(principal)))['challenge']);
    const { id } = await world.addPasskey.execute({ principal, response: { id: 'ada-laptop', challenge: registration }, metadata });
    const outcome = await world.signIn.execute(aSignInCommand());
    expect(outcome).to.deep.include({ methods: ['totp', 'recovery_code', 'webauthn'] });
    const options = async () => String((await world.passkeyAuthenticationOptions.execute({ principal: null }))['challenge']);
    const mfaToken = 'mfaToken' in outcome ? outcome.mfaToken : '';
    const unknown = await rejection(world.signInMfa.execute({ mfaToken, response: { id: 'not-adas', challenge: await options() }, metadata }));
    expect(unknown).to.be.instanceOf(PasskeyRejected);
    const result = await world.signInMfa.execute({ mfaToken, response: { id, challenge: await options(), counter: 1 }, metadata });
    expect((await world.authenticate.execute({ accessToken: result.accessToken })).amr).to.deep.equal(['pwd', 'webauthn']);
    expect(await rejection(world.signInMfa.execute({ mfaToken: await challenge(), response: { id, challenge: 'never-issued', counter: 2 }, metadata }))).to.be.instanceOf(PasskeyRejected);
  });

  it("another account's passkey, valid and registered, does not answer Ada's challenge: PasskeyRejected, no session", async () => {
    const { world, challenge, metadata, userId } = await withSecondFactor(THROTTLE_OUT_OF_THE_WAY);
    const { principal: bob } = await verifiedSignUp(world, aSignUpCommand({ email: 'bob@example.com' }));
    const registration = String((await world.passkeyRegistrationOptions.execute(aHolderProof(bob)))['challenge']);
    const { id } = await world.addPasskey.execute({ principal: bob, response: { id: 'bob-laptop', challenge: registration }, metadata });
    const options = async (principal: typeof bob | null) => String((await world.passkeyAuthenticationOptions.execute({ principal }))['challenge']);

    let counter = 0;
    for (const [label, principal] of [['sign-in options', null], ["options bound to Bob's account", bob]] as const) {
      const refused = await rejection(world.signInMfa.execute({ mfaToken: await challenge(), response: { id, challenge: await options(principal), counter: ++counter }, metadata }));
      expect(refused, label).to.be.instanceOf(PasskeyRejected);
    }
    expect(world.tables.rowsOf(SESSIONS).filter((session) => session.value.userId === userId), 'only the sign-up session of Ada').to.have.length(1);
    const own = await world.signInPasskey.execute({ response: { id, challenge: await options(null), counter: ++counter }, metadata });
    expect(own.user.email, 'the passkey itself is valid: it signs Bob in').to.equal('bob@example.com');
  });
});
