import { expect } from 'chai';
import { PasskeyRejected } from '../../../errors.js';
import { PasskeyNotFound } from '../../errors.js';
import { withPasskeys } from '../../../../../tests/support/passkeys.js';
import { rejection } from '../../../../../tests/support/rejection.js';

describe('RemovePasskeyHandler (removePasskey)', () => {
  it('removes the passkey: it signs in no more, PasskeyRemoved is recorded; removing it again is not found', async () => {
    const { world, principal, metadata, register, assertion } = await withPasskeys();
    const { id } = await register();
    await world.removePasskey.execute({ principal, id, metadata });
    expect(await rejection(world.signInPasskey.execute({ response: await assertion(id), metadata }))).to.be.instanceOf(PasskeyRejected);
    expect(world.store.capabilityEvents.filter((event) => event.type === 'PasskeyRemoved').map((event) => event.payload)).to.deep.equal([{ email: 'ada@example.com', passkeyId: id }]);
    expect(await rejection(world.removePasskey.execute({ principal, id, metadata }))).to.be.instanceOf(PasskeyNotFound);
  });
});
