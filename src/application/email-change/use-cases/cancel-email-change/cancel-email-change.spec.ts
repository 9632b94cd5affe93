import { expect } from 'chai';
import type { InvalidInput } from '../../../../domain/domain-error.js';
import { InvalidToken } from '../../../errors.js';
import { inMemoryWorld } from '../../../../../tests/support/in-memory-world.js';
import { aRequestMetadata } from '../../../../../tests/support/builders.js';
import { rejection } from '../../../../../tests/support/rejection.js';
import { changeRequested } from '../../../../../tests/support/email-change.js';

const metadata = aRequestMetadata();

describe('CancelEmailChangeHandler (cancelEmailChange)', () => {
  it('"this was not me": the change goes, its confirmation link is refused, and every session ends, the one that asked among them', async () => {
    const world = await inMemoryWorld();
    const { signedUp, confirm, cancel } = await changeRequested(world);
    await world.cancelEmailChange.execute({ token: cancel, metadata });
    expect(await world.emailChanges.pendingOf(signedUp.user.id)).to.equal(null);
    expect(((await rejection(world.confirmEmailChange.execute({ token: confirm, metadata }))) as InvalidInput).issues.map((i) => i.field)).to.deep.equal(['token']);
    expect(await rejection(world.authenticate.execute({ accessToken: signedUp.accessToken }))).to.be.instanceOf(InvalidToken);
    expect(world.store.events.map((event) => event.type)).to.include.members(['EmailChangeCancelled', 'SessionsEnded']);
    expect((await world.users.findById(signedUp.user.id))?.email.value).to.equal('ada@example.com');
    expect(((await rejection(world.cancelEmailChange.execute({ token: cancel, metadata }))) as InvalidInput).issues.map((i) => i.field)).to.deep.equal(['token']);
  });

  it('refuses a confirmation link used as a cancel link, and the other way round', async () => {
    const world = await inMemoryWorld();
    const { confirm, cancel } = await changeRequested(world);
    expect(await rejection(world.cancelEmailChange.execute({ token: confirm, metadata }))).to.have.property('issues');
    expect(await rejection(world.confirmEmailChange.execute({ token: cancel, metadata }))).to.have.property('issues');
  });
});
