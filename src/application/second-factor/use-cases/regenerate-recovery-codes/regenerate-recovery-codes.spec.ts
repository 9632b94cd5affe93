import { expect } from 'chai';
import { InvalidMfaCode } from '../../../errors.js';
import { rejection } from '../../../../../tests/support/rejection.js';
import { withSecondFactor } from '../../../../../tests/support/totp.js';

describe('RegenerateRecoveryCodesHandler (regenerateRecoveryCodes)', () => {
  it('after a step-up: ten new codes, the old ones (used or not) stop working, RecoveryCodesRegenerated with no code', async () => {
    const { world, steppedUp, challenge, recoveryCodes, metadata } = await withSecondFactor();
    const { principal } = await steppedUp();
    const { recoveryCodes: fresh } = await world.regenerateRecoveryCodes.execute({ principal, metadata });
    expect(fresh).to.have.length(10);
    expect(fresh.filter((code) => recoveryCodes.includes(code))).to.deep.equal([]);
    expect(await rejection(world.signInMfa.execute({ mfaToken: await challenge(), recoveryCode: recoveryCodes[1], metadata }))).to.be.instanceOf(InvalidMfaCode);
    expect(await world.signInMfa.execute({ mfaToken: await challenge(), recoveryCode: fresh[1], metadata })).to.have.property('accessToken');
    expect((await world.getCurrentUser.execute({ principal })).mfa).to.deep.equal({ enrolled: true, recoveryCodesLeft: 9 });
    const regenerated = world.store.capabilityEvents.filter((event) => event.type === 'RecoveryCodesRegenerated');
    expect(regenerated.map((event) => event.payload)).to.deep.equal([{ email: 'ada@example.com' }]);
    expect(JSON.stringify(world.store.events)).to.not.match(new RegExp(fresh.join('|')));
  });
});
