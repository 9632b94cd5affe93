import { expect } from 'chai';
import { enrolled, withSecondFactor } from '../../../../tests/support/totp.js';

describe('GetMfaStatusHandler (getMfaStatus)', () => {
  it('no factor, or one not confirmed yet: not enrolled; confirmed: enrolled, with the recovery codes left', async () => {
    const pending = await enrolled();
    expect(await pending.world.getMfaStatus.execute({ userId: pending.userId })).to.deep.equal({ enrolled: false, recoveryCodesLeft: 0 });
    const { world, userId, challenge, recoveryCodes, metadata } = await withSecondFactor();
    expect(await world.getMfaStatus.execute({ userId })).to.deep.equal({ enrolled: true, recoveryCodesLeft: 10 });
    await world.signInMfa.execute({ mfaToken: await challenge(), recoveryCode: recoveryCodes[0], metadata });
    expect(await world.getMfaStatus.execute({ userId })).to.deep.equal({ enrolled: true, recoveryCodesLeft: 9 });
  });
});
