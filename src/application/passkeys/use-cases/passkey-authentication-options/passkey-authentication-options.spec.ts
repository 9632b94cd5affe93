import { expect } from 'chai';
import { withPasskeys } from '../../../../../tests/support/passkeys.js';

describe('PasskeyAuthenticationOptionsHandler (passkeyAuthenticationOptions)', () => {
  it('stores each challenge for one sign-in answer; for a signed-in caller, bound to its account', async () => {
    const { world, principal } = await withPasskeys();
    const now = world.clock.now();
    const anyone = String((await world.passkeyAuthenticationOptions.execute({ principal: null }))['challenge']);
    const mine = String((await world.passkeyAuthenticationOptions.execute({ principal }))['challenge']);
    expect(anyone).to.not.equal(mine);
    expect(await world.ports.passkeys.takeChallenge(anyone, 'registration', now), 'not a registration challenge').to.equal(null);
    expect(await world.ports.passkeys.takeChallenge(anyone, 'authentication', now)).to.deep.include({ userId: null });
    expect(await world.ports.passkeys.takeChallenge(mine, 'authentication', now)).to.deep.include({ userId: principal.userId });
  });
});
