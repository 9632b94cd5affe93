import { expect } from 'chai';
import { InvalidInput } from '../../../../domain/domain-error.js';
import { PasskeyNotFound } from '../../errors.js';
import { aSignUpCommand } from '../../../../../tests/support/builders.js';
import { withPasskeys } from '../../../../../tests/support/passkeys.js';
import { rejection } from '../../../../../tests/support/rejection.js';

describe('RenamePasskeyHandler (renamePasskey)', () => {
  it("renames the caller's passkey; another account's is not found; a name must be 1 to 64 characters", async () => {
    const { world, principal, register } = await withPasskeys();
    const { id } = await register();
    expect((await world.renamePasskey.execute({ principal, id, name: 'Work laptop' })).name).to.equal('Work laptop');
    expect(await rejection(world.renamePasskey.execute({ principal, id, name: 'x'.repeat(65) }))).to.be.instanceOf(InvalidInput);
    const grace = await world.signUp.execute(aSignUpCommand({ email: 'grace@example.com' }));
    const stranger = await world.authenticate.execute({ accessToken: grace.accessToken });
    expect(await rejection(world.renamePasskey.execute({ principal: stranger, id, name: 'Mine now' }))).to.be.instanceOf(PasskeyNotFound);
    expect((await world.listPasskeys.execute({ userId: principal.userId }))[0]?.name).to.equal('Work laptop');
  });
});
