import { expect } from 'chai';
import { InvalidToken, UserNotFound } from '../../errors.js';
import { aRequestMetadata } from '../../../../tests/support/builders.js';
import { inMemoryWorld } from '../../../../tests/support/in-memory-world.js';
import { rejection } from '../../../../tests/support/rejection.js';
import { verifiedSignUp } from '../../../../tests/support/verified.js';

const key = { keyId: 'k4', scopes: ['users:write' as const] };
const metadata = aRequestMetadata();

describe('AdminDeleteUserHandler (adminDeleteUser)', () => {
  it('erases the account as its owner would, mails the notice, and records AccountDeleted with the key as actor', async () => {
    const world = await inMemoryWorld();
    const { signedUp } = await verifiedSignUp(world);
    await world.adminDeleteUser.execute({ userId: signedUp.user.id, key, metadata });
    expect(await world.users.findById(signedUp.user.id)).to.equal(null);
    expect(await rejection(world.authenticate.execute({ accessToken: signedUp.accessToken }))).to.be.instanceOf(InvalidToken);
    await world.deliverMail.execute();
    expect(world.mail.delivered.filter((mail) => mail.subject === 'Your account was deleted').map((mail) => mail.to)).to.deep.equal(['ada@example.com']);
    const deleted = world.store.events.find((event) => event.type === 'AccountDeleted');
    expect([deleted?.metadata.actor, deleted?.metadata.clientIp]).to.deep.equal(['key:k4', null]);
    expect(await rejection(world.adminDeleteUser.execute({ userId: signedUp.user.id, key, metadata }))).to.be.instanceOf(UserNotFound);
  });
});
