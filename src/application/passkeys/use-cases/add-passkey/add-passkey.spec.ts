import { codeOf } from '../../../../../tests/support/totp.js';
import { StepUpRequired } from '../../../errors.js';
import { expect } from 'chai';
import { InvalidInput } from '../../../../domain/domain-error.js';
import { PasskeyRejected } from '../../../errors.js';
import { PASSKEYS_PER_ACCOUNT_MAX } from '../../ports/passkey-repository.port.js';
import { aSignUpCommand, aHolderProof } from '../../../../../tests/support/builders.js';
import { verifiedSignUp } from '../../../../../tests/support/verified.js';
import { issuesOf } from '../../../../../tests/support/mail-world.js';
import { withPasskeys } from '../../../../../tests/support/passkeys.js';
import { rejection } from '../../../../../tests/support/rejection.js';

describe('AddPasskeyHandler (addPasskey)', () => {
  it('registers the answer to its registration challenge: the resource (never a key), PasskeyAdded with its name', async () => {
    const { world, register, userId } = await withPasskeys();
    const added = await register({}, undefined, '  Laptop  ');
    expect(added).to.deep.equal({ id: added.id, name: 'Laptop', createdAt: world.clock.now(), lastUsedAt: null, transports: ['internal'], backedUp: false });
    expect(world.store.capabilityEvents.filter((event) => event.type === 'PasskeyAdded').map((event) => [event.aggregateId, event.payload])).to.deep.equal([
      [userId, { email: 'ada@example.com', passkeyId: added.id, name: 'Laptop' }],
    ]);
    expect((await register()).name, 'a default name').to.equal('Passkey');
  });

  it('holds an account to PASSKEYS_PER_ACCOUNT_MAX under concurrency: of 6 registrations answered at once at one below the cap, one is stored', async () => {
    const { world, principal, metadata, register } = await withPasskeys();
    for (let i = 1; i < PASSKEYS_PER_ACCOUNT_MAX; i++) await register();
    const challenges: string[] = [];
    for (let i = 0; i < 6; i++) challenges.push(String((await world.passkeyRegistrationOptions.execute(aHolderProof(principal)))['challenge']));
    const answers = await Promise.allSettled(challenges.map((challenge, i) => world.addPasskey.execute({ principal, response: { id: `credential-burst-${i}`, challenge }, metadata })));
    expect(answers.filter((answer) => answer.status === 'fulfilled')).to.have.length(1);
    const refusals = answers.flatMap((answer) => (answer.status === 'rejected' ? [issuesOf(answer.reason)[0]?.message] : []));
    expect(refusals).to.deep.equal(Array.from({ length: 5 }, () => `cannot be added: an account holds at most ${PASSKEYS_PER_ACCOUNT_MAX} passkeys`));
    expect(await world.listPasskeys.execute({ userId: principal.userId })).to.have.length(PASSKEYS_PER_ACCOUNT_MAX);
    expect(world.store.capabilityEvents.filter((event) => event.type === 'PasskeyAdded')).to.have.length(PASSKEYS_PER_ACCOUNT_MAX);
  });

  it('refuses a replayed registration, a sign-in challenge, another account\'s challenge, a wrong origin, no user verification, a taken id, a bad name', async () => {
    const { world, principal, metadata, register, assertion } = await withPasskeys();
    const challenge = String((await world.passkeyRegistrationOptions.execute(aHolderProof(principal)))['challenge']);
    const once = { id: 'credential-replayed', challenge };
    await world.addPasskey.execute({ principal, response: once, metadata });
    const reasons = async (response: unknown, who = principal) => issuesOf(await rejection(world.addPasskey.execute({ principal: who, response, metadata })))[0]?.message;
    expect(await reasons({ ...once, id: 'credential-again' }), 'replayed').to.match(/no open registration challenge/);
    expect(await reasons(await assertion('credential-x')), 'a sign-in challenge').to.match(/no open registration challenge/);
    const grace = await verifiedSignUp(world, aSignUpCommand({ email: 'grace@example.com' }));
    const graceChallenge = String((await world.passkeyRegistrationOptions.execute(aHolderProof(grace.principal)))['challenge']);
    expect(await reasons({ id: 'credential-y', challenge: graceChallenge }), "another account's").to.match(/no open registration challenge/);
    expect(await rejection(register({ origin: 'http://evil.example' }))).to.be.instanceOf(PasskeyRejected);
    expect(issuesOf(await rejection(register({ userVerified: false })))[0]?.message).to.match(/user verification/);
    expect(issuesOf(await rejection(register({ id: 'credential-replayed' })))[0]?.message).to.equal('is registered already');
    expect(await rejection(register({}, principal, ''))).to.be.instanceOf(InvalidInput);
    expect(await world.listPasskeys.execute({ userId: principal.userId })).to.have.length(1);
  });

  it('checks the step-up again when the passkey is posted: options taken before a factor was turned on register nothing without it', async () => {
    const { world, principal, metadata } = await withPasskeys();
    const challenge = String((await world.passkeyRegistrationOptions.execute(aHolderProof(principal)))['challenge']);
    const { secret } = await world.enrolTotp.execute(aHolderProof(principal));
    await world.confirmTotp.execute({ principal, code: codeOf(secret, world.clock.now()), metadata });
    expect(await rejection(world.addPasskey.execute({ principal, response: { id: 'credential-late', challenge }, metadata }))).to.be.instanceOf(StepUpRequired);
    expect(await world.listPasskeys.execute({ userId: principal.userId })).to.have.length(0);
  });
});
