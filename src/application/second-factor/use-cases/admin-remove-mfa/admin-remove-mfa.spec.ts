import { expect } from 'chai';
import { MfaNotEnrolled, UserNotFound } from '../../../errors.js';
import { aRequestMetadata, aSignInCommand } from '../../../../../tests/support/builders.js';
import { rejection } from '../../../../../tests/support/rejection.js';
import { withSecondFactor } from '../../../../../tests/support/totp.js';

const key = { keyId: 'k3', scopes: ['users:write' as const] };
const metadata = aRequestMetadata();

describe('AdminRemoveMfaHandler (adminRemoveMfa)', () => {
  it('removes the lost factor: the password alone signs in again, and the owner is mailed', async () => {
    const { world, userId } = await withSecondFactor();
    await world.deliverMail.execute();
    await world.adminRemoveMfa.execute({ userId, key, metadata });
    expect(await world.signIn.execute(aSignInCommand())).to.have.property('accessToken');
    await world.deliverMail.execute();
    expect(world.mail.delivered.filter((mail) => mail.subject === 'Two-step sign-in is off').map((mail) => mail.to)).to.include('ada@example.com');
    expect(world.store.capabilityEvents.find((event) => event.type === 'MfaRemoved')?.metadata.actor).to.equal('key:k3');
    expect(await rejection(world.adminRemoveMfa.execute({ userId, key, metadata }))).to.be.instanceOf(MfaNotEnrolled);
    expect(await rejection(world.adminRemoveMfa.execute({ userId: 'no-such-user', key, metadata }))).to.be.instanceOf(UserNotFound);
  });
});
