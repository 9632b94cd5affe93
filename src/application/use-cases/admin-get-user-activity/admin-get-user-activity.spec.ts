import { expect } from 'chai';
import { UserNotFound } from '../../errors.js';
import { aRequestMetadata, aSignUpCommand } from '../../../../tests/support/builders.js';
import { inMemoryWorld } from '../../../../tests/support/in-memory-world.js';
import { rejection } from '../../../../tests/support/rejection.js';
import { verifiedSignUp } from '../../../../tests/support/verified.js';

const metadata = aRequestMetadata();

describe('AdminGetUserActivityHandler (adminGetUserActivity)', () => {
  it("names who acted for an operator: the operator's account and its address now, an API key by its id; the owner's own entries as they are", async () => {
    const world = await inMemoryWorld();
    const { signedUp } = await verifiedSignUp(world);
    const operator = await world.signUp.execute(aSignUpCommand({ email: 'grace@example.com' }));
    const userId = signedUp.user.id;
    await world.adminSetDisabled.execute({ userId, key: { operatorId: operator.user.id, scopes: ['users:write'] }, metadata, disabled: true });
    await world.adminSetDisabled.execute({ userId, key: { keyId: 'k1', scopes: ['users:write'] }, metadata, disabled: false });
    const page = await world.adminGetUserActivity.execute({ userId });
    const byOperator = page.entries.filter((entry) => entry.by === 'administrator').map((entry) => [entry.type, entry.actor, entry.actorEmail]);
    expect(byOperator).to.deep.include.members([
      ['account_disabled', `operator:${operator.user.id}`, 'grace@example.com'],
      ['account_enabled', 'key:k1', undefined],
    ]);
    const own = page.entries.filter((entry) => entry.by === undefined);
    expect(own.length, "the owner's own entries").to.be.greaterThan(0);
    expect(own.every((entry) => entry.actor === undefined && entry.actorEmail === undefined)).to.equal(true);
    // What the owner reads never names anyone.
    const owners = await world.getAccountActivity.execute({ userId });
    expect(owners.entries.filter((entry) => entry.by === 'administrator').every((entry) => !('actorEmail' in entry))).to.equal(true);
    expect(await rejection(world.adminGetUserActivity.execute({ userId: 'no-such-user' }))).to.be.instanceOf(UserNotFound);
  });
});
