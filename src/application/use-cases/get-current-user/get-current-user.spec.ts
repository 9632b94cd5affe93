import { expect } from 'chai';
import { aRequestMetadata, aSignUpCommand } from '../../../../tests/support/builders.js';
import { inMemoryWorld } from '../../../../tests/support/in-memory-world.js';
import { enrolled, withSecondFactor } from '../../../../tests/support/totp.js';

describe('GetCurrentUserHandler', () => {
  it('answers the account as authentication read it: the user resource sign-up returned, no factor, writing nothing', async () => {
    const world = await inMemoryWorld();
    const { user, accessToken } = await world.signUp.execute(aSignUpCommand());
    const principal = await world.authenticate.execute({ accessToken });
    const eventsBefore = world.store.events.length;

    expect(await world.getCurrentUser.execute({ principal })).to.deep.equal({
      user: { id: user.id, name: 'Ada', lastname: 'Lovelace', email: 'ada@example.com', emailverified: false },
      mfa: { enrolled: false, recoveryCodesLeft: 0 },
    });
    expect(world.store.events).to.have.length(eventsBefore);
  });

  it('shows a change made since the token was issued: each request authenticates, and reads the account then', async () => {
    const world = await inMemoryWorld();
    const { user, accessToken } = await world.signUp.execute(aSignUpCommand());
    await world.changeProfile.execute({ userId: user.id, name: 'Augusta', lastname: 'Lovelace', metadata: aRequestMetadata() });
    const principal = await world.authenticate.execute({ accessToken });
    expect((await world.getCurrentUser.execute({ principal })).user).to.deep.include({ name: 'Augusta', lastname: 'Lovelace' });
  });

  it('the second factor: not enrolled before it is confirmed; once confirmed, enrolled with the recovery codes left', async () => {
    const pending = await enrolled();
    expect((await pending.world.getCurrentUser.execute({ principal: pending.principal })).mfa).to.deep.equal({ enrolled: false, recoveryCodesLeft: 0 });
    const { world, passwordOnly, challenge, recoveryCodes, metadata } = await withSecondFactor();
    expect((await world.getCurrentUser.execute({ principal: passwordOnly })).mfa).to.deep.equal({ enrolled: true, recoveryCodesLeft: 10 });
    await world.signInMfa.execute({ mfaToken: await challenge(), recoveryCode: recoveryCodes[0], metadata });
    expect((await world.getCurrentUser.execute({ principal: passwordOnly })).mfa).to.deep.equal({ enrolled: true, recoveryCodesLeft: 9 });
  });
});
