import { expect } from 'chai';
import { InvalidCredentials } from '../../../domain/domain-error.js';
import { InvalidToken, UserNotFound } from '../../errors.js';
import { aRequestMetadata, aSignInCommand } from '../../../../tests/support/builders.js';
import { inMemoryWorld } from '../../../../tests/support/in-memory-world.js';
import { rejection } from '../../../../tests/support/rejection.js';
import { verifiedSignUp } from '../../../../tests/support/verified.js';

const key = { keyId: 'k1', scopes: ['users:write' as const] };
const metadata = aRequestMetadata();

describe('AdminSetDisabledHandler (adminSetDisabled)', () => {
  it('disables: every session ends at once and the right password answers as a wrong one; enabled, it signs in again', async () => {
    const world = await inMemoryWorld();
    const { signedUp } = await verifiedSignUp(world);
    const userId = signedUp.user.id;
    expect(await world.adminSetDisabled.execute({ userId, key, metadata, disabled: true })).to.include({ id: userId, disabled: true });
    expect(await rejection(world.authenticate.execute({ accessToken: signedUp.accessToken }))).to.be.instanceOf(InvalidToken);
    expect(await rejection(world.signIn.execute(aSignInCommand()))).to.be.instanceOf(InvalidCredentials);
    expect(await rejection(world.refreshSession.execute({ refreshToken: signedUp.refreshToken, metadata }))).to.have.property('code', 'INVALID_REFRESH_TOKEN');
    const disabled = world.store.events.filter((event) => event.type === 'AccountDisabled');
    expect(disabled.map((event) => event.metadata.actor)).to.deep.equal(['key:k1']);
    await world.adminSetDisabled.execute({ userId, key, metadata, disabled: true });
    expect(world.store.events.filter((event) => event.type === 'AccountDisabled'), 'disabling twice records nothing').to.have.length(1);
    expect(await world.adminSetDisabled.execute({ userId, key, metadata, disabled: false })).to.include({ disabled: false });
    expect(await world.signIn.execute(aSignInCommand())).to.have.property('accessToken');
    expect(await rejection(world.adminSetDisabled.execute({ userId: 'no-such-user', key, metadata, disabled: true }))).to.be.instanceOf(UserNotFound);
  });
});
