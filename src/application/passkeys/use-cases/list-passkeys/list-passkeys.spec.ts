import { expect } from 'chai';
import { withPasskeys } from '../../../../../tests/support/passkeys.js';

describe('ListPasskeysHandler (listPasskeys)', () => {
  it("lists the account's passkeys oldest first, and no one else's", async () => {
    const { world, register, userId } = await withPasskeys();
    const first = await register({}, undefined, 'Phone');
    world.clock.advance(1000);
    const second = await register({}, undefined, 'Laptop');
    expect((await world.listPasskeys.execute({ userId })).map((passkey) => [passkey.id, passkey.name])).to.deep.equal([[first.id, 'Phone'], [second.id, 'Laptop']]);
    expect(await world.listPasskeys.execute({ userId: 'someone-else' })).to.deep.equal([]);
  });
});
