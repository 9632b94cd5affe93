import { expect } from 'chai';
import { InsufficientScope, InvalidToken, KeyRateLimited, NotAnOperator, SecondFactorRequired } from '../../../errors.js';
import { aRequestMetadata, aSignUpCommand } from '../../../../../tests/support/builders.js';
import { rejection } from '../../../../../tests/support/rejection.js';
import { withSecondFactor } from '../../../../../tests/support/totp.js';
import { verifiedSignUp } from '../../../../../tests/support/verified.js';
import { OPERATOR_REPOSITORY } from '../../ports/operator-repository.port.js';
import { AuthenticateOperatorHandler } from './authenticate-operator.handler.js';

const metadata = aRequestMetadata();

describe('AuthenticateOperatorHandler (an operator\'s access token on the admin API, through authenticateApiKey)', () => {
  it('accepts a token of an operator signed in with a second factor, for users:read and users:write only; refuses a non-operator, one factor, a revoked role, an ended session', async () => {
    const { world, signedUp, steppedUp } = await withSecondFactor();
    const { signedIn } = await steppedUp();
    const twoFactors = signedIn.accessToken;
    const oneFactor = signedUp.accessToken;
    const check = (key: string, scope: 'users:read' | 'users:write' | 'introspect' = 'users:read') => world.authenticateApiKey.execute({ key, scope });
    expect(await rejection(check(twoFactors)), 'not an operator yet').to.be.instanceOf(NotAnOperator);
    expect(await rejection(check(oneFactor)), 'not an operator, one factor: the role is checked first').to.be.instanceOf(NotAnOperator);
    await world.setOperatorRole.execute({ email: aSignUpCommand().email as string, operator: true, metadata });
    expect(await check(twoFactors)).to.deep.equal({ operatorId: signedUp.user.id, scopes: ['users:read', 'users:write'] });
    expect(await check(twoFactors, 'users:write')).to.have.property('operatorId', signedUp.user.id);
    const introspect = await rejection(check(twoFactors, 'introspect'));
    expect(introspect).to.be.instanceOf(InsufficientScope);
    expect((introspect as InsufficientScope).issues[0]?.message).to.equal("an operator's access token lacks the scope introspect");
    expect(await rejection(check(oneFactor)), 'one factor').to.be.instanceOf(SecondFactorRequired);
    for (const garbage of ['garbage', '', `${twoFactors}x`]) expect(await rejection(check(garbage)), garbage).to.be.instanceOf(InvalidToken);
    await world.setOperatorRole.execute({ email: aSignUpCommand().email as string, operator: false, metadata });
    expect(await rejection(check(twoFactors)), 'revoked: at once').to.be.instanceOf(NotAnOperator);
    await world.setOperatorRole.execute({ email: aSignUpCommand().email as string, operator: true, metadata });
    const principal = await world.authenticate.execute({ accessToken: twoFactors });
    await world.signOut.execute({ principal, scope: 'local', metadata });
    expect(await rejection(check(twoFactors)), 'its session ended').to.be.instanceOf(InvalidToken);
  });

  it("names the operator's account as the actor of what it does on another account (operator:<id>)", async () => {
    const { world, signedUp, steppedUp } = await withSecondFactor();
    const { signedIn } = await steppedUp();
    await world.setOperatorRole.execute({ email: aSignUpCommand().email as string, operator: true, metadata });
    const target = await verifiedSignUp(world, aSignUpCommand({ email: 'grace@example.com' }));
    const key = await world.authenticateApiKey.execute({ key: signedIn.accessToken, scope: 'users:write' });
    await world.adminSetDisabled.execute({ userId: target.signedUp.user.id, key, metadata, disabled: true });
    const actors = world.store.events.filter((event) => event.aggregateId === target.signedUp.user.id && event.type === 'AccountDisabled').map((event) => event.metadata.actor);
    expect(actors).to.deep.equal([`operator:${signedUp.user.id}`]);
  });

  it('holds API_KEY_RATE_LIMIT_PER_MINUTE per operator exactly under concurrency: of 12 simultaneous requests over a limit of 5, 5 pass', async () => {
    const { world, steppedUp } = await withSecondFactor();
    const { signedIn } = await steppedUp();
    await world.setOperatorRole.execute({ email: aSignUpCommand().email as string, operator: true, metadata });
    const limited = new AuthenticateOperatorHandler({ ...world.ports, operators: world.get(OPERATOR_REPOSITORY) }, { perMinute: 5, requireVerifiedEmail: false });
    const outcomes = await Promise.allSettled(Array.from({ length: 12 }, () => limited.execute({ key: signedIn.accessToken, scope: 'users:read' })));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).to.have.length(5);
    expect(outcomes.every((outcome) => outcome.status === 'fulfilled' || outcome.reason instanceof KeyRateLimited)).to.equal(true);
  });
});
