import { expect } from 'chai';
import { UserNotFound } from '../../errors.js';
import { rejection } from '../../../../tests/support/rejection.js';
import { withSecondFactor } from '../../../../tests/support/totp.js';

describe('AdminGetUserHandler (adminGetUser)', () => {
  it('shows the account, its live sessions, its factor and its records, never a secret; an unknown id is UserNotFound', async () => {
    const { world, passwordOnly: principal, secret, recoveryCodes } = await withSecondFactor();
    const details = await world.adminGetUser.execute({ userId: principal.userId });
    expect(details.user).to.include({ id: principal.userId, email: 'ada@example.com', disabled: false });
    expect(details.sessions.map((session) => session.id)).to.include(principal.sessionId);
    expect(details.secondFactor.enrolled).to.equal(true);
    expect(Object.keys(details.records)).to.include.members(['passkeys', 'identities', 'totp-factors']);
    const shown = JSON.stringify(details);
    const factor = await world.secondFactors.find(principal.userId);
    expect(shown).not.to.include('argon2').and.not.include(secret).and.not.include(factor?.snapshot().sealedSecret ?? '-');
    for (const code of recoveryCodes) expect(shown).not.to.include(code);
    expect(await rejection(world.adminGetUser.execute({ userId: 'no-such-user' }))).to.be.instanceOf(UserNotFound);
  });
});
