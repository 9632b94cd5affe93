import { expect } from 'chai';
import { StepUpRequired } from '../../errors.js';
import { withPasskeys } from '../../../../tests/support/passkeys.js';
import { rejection } from '../../../../tests/support/rejection.js';
import { withSecondFactor } from '../../../../tests/support/totp.js';

describe('PasskeyRegistrationOptionsHandler (passkeyRegistrationOptions)', () => {
  it('answers creation options whose challenge is stored for one registration by this account', async () => {
    const { world, principal } = await withPasskeys();
    const options = await world.passkeyRegistrationOptions.execute({ principal });
    const challenge = String(options['challenge']);
    expect(await world.ports.passkeys.takeChallenge(challenge, 'authentication', world.clock.now()), 'not a sign-in challenge').to.equal(null);
    expect(await world.ports.passkeys.takeChallenge(challenge, 'registration', world.clock.now())).to.deep.include({ purpose: 'registration', userId: principal.userId });
  });

  it('asks for step-up when the account has a second factor', async () => {
    const { world, passwordOnly, steppedUp } = await withSecondFactor();
    expect(await rejection(world.passkeyRegistrationOptions.execute({ principal: passwordOnly }))).to.be.instanceOf(StepUpRequired);
    const { principal } = await steppedUp();
    expect(await world.passkeyRegistrationOptions.execute({ principal })).to.have.property('challenge');
  });
});
