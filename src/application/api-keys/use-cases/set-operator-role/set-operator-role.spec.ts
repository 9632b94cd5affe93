import { expect } from 'chai';
import { InvalidInput } from '../../../../domain/domain-error.js';
import { aRequestMetadata } from '../../../../../tests/support/builders.js';
import { inMemoryWorld } from '../../../../../tests/support/in-memory-world.js';
import { rejection } from '../../../../../tests/support/rejection.js';
import { verifiedSignUp } from '../../../../../tests/support/verified.js';
import { AccountNotFound } from '../../errors.js';
import { OPERATOR_REPOSITORY } from '../../ports/operator-repository.port.js';

const metadata = aRequestMetadata();

describe('SetOperatorRoleHandler (setOperatorRole)', () => {
  it('grants the role by address, once (a second grant writes nothing), and revokes it, once; each change is an event of the account by the command line', async () => {
    const world = await inMemoryWorld();
    const { signedUp } = await verifiedSignUp(world);
    const userId = signedUp.user.id;
    const operators = world.get(OPERATOR_REPOSITORY);
    expect(await operators.isOperator(userId)).to.equal(false);
    expect(await world.setOperatorRole.execute({ email: ' ADA@example.com ', operator: true, metadata })).to.deep.equal({ accountId: userId, email: 'ada@example.com', operator: true, changed: true });
    expect((await world.setOperatorRole.execute({ email: 'ada@example.com', operator: true, metadata })).changed, 'granted already').to.equal(false);
    expect(await operators.isOperator(userId)).to.equal(true);
    expect((await world.setOperatorRole.execute({ email: 'ada@example.com', operator: false, metadata })).changed).to.equal(true);
    expect((await world.setOperatorRole.execute({ email: 'ada@example.com', operator: false, metadata })).changed, 'revoked already').to.equal(false);
    expect(await operators.isOperator(userId)).to.equal(false);
    const recorded = world.store.capabilityEvents.filter((event) => event.type.startsWith('Operator'));
    expect(recorded.map((event) => [event.type, event.aggregateId, event.payload, event.metadata.actor])).to.deep.equal([
      ['OperatorGranted', userId, { accountId: userId }, 'cli'],
      ['OperatorRevoked', userId, { accountId: userId }, 'cli'],
    ]);
  });

  it('refuses an address no account has (AccountNotFound) and one that is no address (InvalidInput naming email), writing nothing', async () => {
    const world = await inMemoryWorld();
    await verifiedSignUp(world);
    expect(await rejection(world.setOperatorRole.execute({ email: 'nobody@example.com', operator: true, metadata }))).to.be.instanceOf(AccountNotFound);
    const invalid = await rejection(world.setOperatorRole.execute({ email: 'not an address', operator: true, metadata }));
    expect(invalid).to.be.instanceOf(InvalidInput);
    expect((invalid as InvalidInput).issues.map((issue) => issue.field)).to.deep.equal(['email']);
    expect(world.store.capabilityEvents.filter((event) => event.type.startsWith('Operator'))).to.deep.equal([]);
  });
});
