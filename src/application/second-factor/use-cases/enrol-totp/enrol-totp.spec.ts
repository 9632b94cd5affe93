import { aSignUpCommand } from '../../../../../tests/support/builders.js';
import { withSecondFactor } from '../../../../../tests/support/totp.js';
import { verifiedSignUp, verifyAddress } from '../../../../../tests/support/verified.js';
import { inMemoryWorld } from '../../../../../tests/support/in-memory-world.js';
import { InvalidInput } from '../../../../domain/domain-error.js';
import { EmailNotVerified, InvalidToken, MfaAlreadyEnrolled, StepUpRequired } from '../../../errors.js';
import { expect } from 'chai';
import { aRequestMetadata, aHolderProof } from '../../../../../tests/support/builders.js';
import { issuesOf } from '../../../../../tests/support/mail-world.js';
import { rejection } from '../../../../../tests/support/rejection.js';
import { codeOf, enrolled } from '../../../../../tests/support/totp.js';

const metadata = aRequestMetadata();
const INCORRECT = [{ field: 'code', code: 'INCORRECT', message: 'is incorrect or already used' }];

describe('EnrolTotpHandler', () => {
  it('enrols: a secret and its otpauth URI once, stored only sealed, unconfirmed until a code arrives', async () => {
    const { world, enrolment, userId } = await enrolled();
    expect(enrolment.secret).to.match(/^[A-Z2-7]{32}$/);
    expect(new URL(enrolment.uri).searchParams.get('secret')).to.equal(enrolment.secret);
    const stored = (await world.ports.secondFactors.find(userId))?.snapshot();
    expect(stored?.confirmedAt).to.equal(null);
    expect(JSON.stringify(stored)).to.not.include(enrolment.secret);
    expect(world.ports.factorSecrets.open(stored?.sealedSecret ?? '', userId)).to.equal(enrolment.secret);
  });

  it('starting again before confirming replaces the secret: a code of the first one no longer confirms', async () => {
    const { world, principal, enrolment } = await enrolled();
    const again = await world.enrolTotp.execute(aHolderProof(principal));
    expect(again.secret).to.not.equal(enrolment.secret);
    expect(issuesOf(await rejection(world.confirmTotp.execute({ principal, code: codeOf(enrolment.secret, world.clock.now()), metadata })))).to.deep.equal(INCORRECT);
    expect((await world.confirmTotp.execute({ principal, code: codeOf(again.secret, world.clock.now()), metadata })).recoveryCodes).to.have.length(10);
  });


  it('adds a factor only to a proven address, and only for the holder of the password now (a copied access token is not enough)', async () => {
    const world = await inMemoryWorld();
    const signedUp = await world.signUp.execute(aSignUpCommand());
    const unverified = await world.authenticate.execute({ accessToken: signedUp.accessToken });
    expect(await rejection(world.enrolTotp.execute(aHolderProof(unverified))), 'an address nobody proved').to.be.instanceOf(EmailNotVerified);
    await verifyAddress(world, signedUp.user.id);
    const principal = await world.authenticate.execute({ accessToken: signedUp.accessToken });
    expect(issuesOf(await rejection(world.enrolTotp.execute({ principal, currentPassword: undefined, metadata })))).to.deep.equal([{ field: 'currentpassword', code: 'REQUIRED', message: 'is required' }]);
    expect(issuesOf(await rejection(world.enrolTotp.execute(aHolderProof(principal, 'not the password at all'))))).to.deep.equal([{ field: 'currentpassword', code: 'INCORRECT', message: 'is incorrect' }]);
    expect(world.store.events.filter((event) => event.type === 'SignInFailed').map((event) => event.payload)).to.deep.equal([{ email: 'ada@example.com', reason: 'wrong_current_password' }]);
    expect(await world.ports.secondFactors.find(principal.userId), 'nothing enrolled').to.equal(null);
    expect((await world.enrolTotp.execute(aHolderProof(principal))).secret).to.match(/^[A-Z2-7]{32}$/);
  });

  it('counts wrong passwords as a password change does: the session that presents PASSWORD_CHANGE_MAX_FAILURES of them ends, however many arrive at once', async () => {
    const world = await inMemoryWorld({ sessions: { passwordChangeMaxFailures: 3 } });
    const { signedUp, principal } = await verifiedSignUp(world);
    const tries = await Promise.allSettled(Array.from({ length: 8 }, () => world.enrolTotp.execute(aHolderProof(principal, 'not the password at all'))));
    expect(tries.filter((outcome) => outcome.status === 'rejected' && outcome.reason instanceof InvalidInput)).to.have.length(3);
    expect(world.store.events.filter((event) => event.type === 'SignInFailed')).to.have.length(3);
    expect(await rejection(world.authenticate.execute({ accessToken: signedUp.accessToken })), 'the session ended').to.be.instanceOf(InvalidToken);
  });

  it('an account with a factor needs its step-up to enrol again, and then hears it has one', async () => {
    const { world, passwordOnly, steppedUp } = await withSecondFactor();
    expect(await rejection(world.enrolTotp.execute(aHolderProof(passwordOnly)))).to.be.instanceOf(StepUpRequired);
    const { principal } = await steppedUp();
    expect(await rejection(world.enrolTotp.execute(aHolderProof(principal)))).to.be.instanceOf(MfaAlreadyEnrolled);
  });
});
