import { expect } from 'chai';
import { InvalidInput } from '../../../../domain/domain-error.js';
import { InvalidMfaCode, StepUpRequired } from '../../../errors.js';
import { aSignInCommand, completedSignIn } from '../../../../../tests/support/builders.js';
import { issuesOf } from '../../../../../tests/support/mail-world.js';
import { rejection } from '../../../../../tests/support/rejection.js';
import { withSecondFactor } from '../../../../../tests/support/totp.js';

const PASSWORD = 'analytical engine 1843';

describe('RemoveTotpHandler (removeTotp)', () => {
  it('needs step-up, the current password and an unused code; then sign-in asks for the password only, and MfaRemoved is recorded', async () => {
    const { world, passwordOnly, steppedUp, code, metadata, userId } = await withSecondFactor();
    const remove = (principal: typeof passwordOnly, currentPassword: string, totp: string) => world.removeTotp.execute({ principal, currentPassword, code: totp, metadata });
    expect(await rejection(remove(passwordOnly, PASSWORD, code()))).to.be.instanceOf(StepUpRequired);
    const { principal } = await steppedUp();
    expect(issuesOf(await rejection(remove(principal, 'not the password', code())))).to.deep.equal([{ field: 'currentpassword', code: 'INCORRECT', message: 'is incorrect' }]);
    expect(await rejection(remove(principal, PASSWORD, code(-1))), 'the step the step-up used').to.be.instanceOf(InvalidMfaCode);
    expect(await rejection(remove(principal, PASSWORD, ''))).to.be.instanceOf(InvalidInput);
    await remove(principal, PASSWORD, code());
    expect((await world.getCurrentUser.execute({ principal })).mfa).to.deep.equal({ enrolled: false, recoveryCodesLeft: 0 });
    expect((await completedSignIn(world.signIn.execute(aSignInCommand()))).user.id).to.equal(userId);
    expect(world.store.capabilityEvents.filter((event) => event.type === 'MfaRemoved').map((event) => event.payload)).to.deep.equal([{ email: 'ada@example.com' }]);
  });
});
