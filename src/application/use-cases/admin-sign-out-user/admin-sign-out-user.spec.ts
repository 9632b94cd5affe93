import { expect } from 'chai';
import { InvalidToken } from '../../errors.js';
import { aRequestMetadata, aSignInCommand, completedSignIn } from '../../../../tests/support/builders.js';
import { inMemoryWorld } from '../../../../tests/support/in-memory-world.js';
import { rejection } from '../../../../tests/support/rejection.js';
import { verifiedSignUp } from '../../../../tests/support/verified.js';

describe('AdminSignOutUserHandler (adminSignOutUser)', () => {
  it('ends every session of the account at once, recorded with the key as actor and no operator address; a new sign-in works', async () => {
    const world = await inMemoryWorld();
    const { signedUp } = await verifiedSignUp(world);
    const other = await completedSignIn(world.signIn.execute(aSignInCommand()));
    await world.adminSignOutUser.execute({ userId: signedUp.user.id, key: { keyId: 'k2', scopes: ['users:write'] }, metadata: aRequestMetadata() });
    for (const accessToken of [signedUp.accessToken, other.accessToken]) expect(await rejection(world.authenticate.execute({ accessToken }))).to.be.instanceOf(InvalidToken);
    const [ended] = world.store.events.filter((event) => event.type === 'SessionsEnded');
    expect([ended?.payload, ended?.metadata.actor]).to.deep.equal([{ email: 'ada@example.com', reason: 'admin', keptSessionId: null }, 'key:k2']);
    expect(ended?.metadata, "the request's id, never the operator's address or agent (issue 61)").to.deep.equal({ requestId: 'req-1', clientIp: null, userAgent: null, actor: 'key:k2' });
    expect(await world.signIn.execute(aSignInCommand())).to.have.property('accessToken');
  });
});
