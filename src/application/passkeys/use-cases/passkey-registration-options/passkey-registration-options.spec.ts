import { aSignUpCommand } from '../../../../../tests/support/builders.js';
import { issuesOf } from '../../../../../tests/support/mail-world.js';
import { verifyAddress } from '../../../../../tests/support/verified.js';
import { inMemoryWorld } from '../../../../../tests/support/in-memory-world.js';
import { EmailNotVerified } from '../../../errors.js';
import { aHolderProof } from '../../../../../tests/support/builders.js';
import { expect } from 'chai';
import { StepUpRequired } from '../../../errors.js';
import { withPasskeys } from '../../../../../tests/support/passkeys.js';
import { rejection } from '../../../../../tests/support/rejection.js';
import { withSecondFactor } from '../../../../../tests/support/totp.js';

describe('PasskeyRegistrationOptionsHandler (passkeyRegistrationOptions)', () => {
  it('answers creation options whose challenge is stored for one registration by this account', async () => {
    const { world, principal } = await withPasskeys();
    const options = await world.passkeyRegistrationOptions.execute(aHolderProof(principal));
    const challenge = String(options['challenge']);
    expect(await world.ports.passkeys.takeChallenge(challenge, 'authentication', world.clock.now()), 'not a sign-in challenge').to.equal(null);
    expect(await world.ports.passkeys.takeChallenge(challenge, 'registration', world.clock.now())).to.deep.include({ purpose: 'registration', userId: principal.userId });
  });

  it('asks for step-up when the account has a second factor', async () => {
    const { world, passwordOnly, steppedUp } = await withSecondFactor();
    expect(await rejection(world.passkeyRegistrationOptions.execute(aHolderProof(passwordOnly)))).to.be.instanceOf(StepUpRequired);
    const { principal } = await steppedUp();
    expect(await world.passkeyRegistrationOptions.execute(aHolderProof(principal))).to.have.property('challenge');
  });

  it('refuses an address nobody proved, and a missing or wrong password: nothing is opened', async () => {
    const world = await inMemoryWorld();
    const signedUp = await world.signUp.execute(aSignUpCommand());
    const unverified = await world.authenticate.execute({ accessToken: signedUp.accessToken });
    expect(await rejection(world.passkeyRegistrationOptions.execute(aHolderProof(unverified)))).to.be.instanceOf(EmailNotVerified);
    await verifyAddress(world, signedUp.user.id);
    const principal = await world.authenticate.execute({ accessToken: signedUp.accessToken });
    expect(issuesOf(await rejection(world.passkeyRegistrationOptions.execute(aHolderProof(principal, 'not the password at all'))))).to.deep.equal([{ field: 'currentpassword', code: 'INCORRECT', message: 'is incorrect' }]);
    expect(await world.passkeyRegistrationOptions.execute(aHolderProof(principal))).to.have.property('challenge');
  });
});
