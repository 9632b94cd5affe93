import { aHolderProof } from '../../../../../tests/support/builders.js';
import { expect } from 'chai';
import { PasskeyRejected } from '../../../errors.js';
import { issuesOf } from '../../../../../tests/support/mail-world.js';
import { withPasskeys } from '../../../../../tests/support/passkeys.js';
import { rejection } from '../../../../../tests/support/rejection.js';

describe('SignInPasskeyHandler (signInPasskey)', () => {
  it('signs in with the passkey and nothing typed: a session with amr ["webauthn"], SignedInWithPasskey, the counter and last use stored', async () => {
    const { world, metadata, register, assertion, userId } = await withPasskeys();
    const { id } = await register();
    const result = await world.signInPasskey.execute({ response: await assertion(id, { counter: 3 }), metadata });
    expect(result.user.id).to.equal(userId);
    expect((await world.authenticate.execute({ accessToken: result.accessToken })).amr).to.deep.equal(['webauthn']);
    expect(world.store.capabilityEvents.filter((event) => event.type === 'SignedInWithPasskey').map((event) => event.payload)).to.deep.equal([{ email: 'ada@example.com', passkeyId: id }]);
    expect((await world.ports.passkeys.find(id))?.snapshot()).to.deep.include({ counter: 3, lastUsedAt: world.clock.now() });
  });

  it('refuses a replayed assertion, a registration challenge, an unknown passkey, no user verification, a wrong origin, and a lower counter (recorded as a possible clone)', async () => {
    const { world, principal, metadata, register, assertion } = await withPasskeys();
    const { id } = await register();
    const reason = async (response: unknown) => issuesOf(await rejection(world.signInPasskey.execute({ response, metadata })))[0]?.message;
    const once = await assertion(id, { counter: 5 });
    await world.signInPasskey.execute({ response: once, metadata });
    expect(await reason(once), 'replayed').to.match(/no open sign-in challenge/);
    const registration = String((await world.passkeyRegistrationOptions.execute(aHolderProof(principal)))['challenge']);
    expect(await reason({ id, challenge: registration, counter: 6 }), 'a registration challenge').to.match(/no open sign-in challenge/);
    expect(await reason(await assertion('credential-never-registered')), 'unknown').to.match(/does not have/);
    expect(await reason(await assertion(id, { counter: 6, userVerified: false })), 'no UV').to.match(/user verification/);
    expect(await rejection(world.signInPasskey.execute({ response: await assertion(id, { counter: 6, origin: 'http://evil.example' }), metadata }))).to.be.instanceOf(PasskeyRejected);
    expect(await reason(await assertion(id, { counter: 4 })), 'lower counter').to.match(/copied/);
    expect(world.store.capabilityEvents.filter((event) => event.type === 'PasskeyCounterRegressed')).to.have.length(1);
    expect((await world.ports.passkeys.find(id))?.counter).to.equal(5);
  });

  it('of 10 simultaneous sign-ins with one assertion exactly one succeeds', async () => {
    const { world, metadata, register, assertion } = await withPasskeys();
    const { id } = await register();
    const response = await assertion(id, { counter: 1 });
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => world.signInPasskey.execute({ response, metadata })));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).to.have.length(1);
  });
});
