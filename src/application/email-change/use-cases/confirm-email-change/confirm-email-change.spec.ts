import { expect } from 'chai';
import type { InvalidInput } from '../../../../domain/domain-error.js';
import { inMemoryWorld } from '../../../../../tests/support/in-memory-world.js';
import { aHolderProof, aRequestMetadata, aSignInCommand, aSignUpCommand, completedSignIn } from '../../../../../tests/support/builders.js';
import { rejection } from '../../../../../tests/support/rejection.js';
import { changeRequested, mailedTo } from '../../../../../tests/support/email-change.js';
import { verifiedSignUp } from '../../../../../tests/support/verified.js';

const metadata = aRequestMetadata();
const SPENT = [{ field: 'token', code: 'INVALID_OR_EXPIRED', message: 'is invalid, expired or already used' }];

describe('ConfirmEmailChangeHandler (confirmEmailChange)', () => {
  it('moves the account to the new address at once, verified; the old address signs in no more, and its links stop working', async () => {
    const world = await inMemoryWorld();
    const { signedUp, confirm, cancel } = await changeRequested(world);
    await world.requestPasswordReset.execute({ email: 'ada@example.com', metadata });
    const reset = await mailedTo(world, 'ada@example.com', 'Reset your password');
    const user = await world.confirmEmailChange.execute({ token: confirm, metadata });
    expect(user).to.deep.include({ id: signedUp.user.id, email: 'countess@lovelace.example', emailverified: true });
    expect((await completedSignIn(world.signIn.execute(aSignInCommand({ email: 'countess@lovelace.example' })))).user.id).to.equal(signedUp.user.id);
    expect(await world.users.findByEmail('ada@example.com')).to.equal(null);
    expect(((await rejection(world.confirmPasswordReset.execute({ token: reset, newPassword: 'difference engine 1822', metadata }))) as InvalidInput).issues.map((i) => i.field)).to.deep.equal(['token']);
    expect(((await rejection(world.cancelEmailChange.execute({ token: cancel, metadata }))) as InvalidInput).issues).to.deep.equal(SPENT);
    expect(((await rejection(world.confirmEmailChange.execute({ token: confirm, metadata }))) as InvalidInput).issues).to.deep.equal(SPENT);
    expect(world.store.events.find((event) => event.type === 'EmailChanged')?.payload).to.deep.equal({ email: 'countess@lovelace.example', previousEmail: 'ada@example.com' });
  });

  it('refuses a link older than EMAIL_VERIFICATION_TTL_SECONDS, and one of a change asked again since', async () => {
    const world = await inMemoryWorld();
    const { principal, confirm } = await changeRequested(world);
    await world.requestEmailChange.execute({ ...aHolderProof(principal), newEmail: 'other@example.com' });
    expect(((await rejection(world.confirmEmailChange.execute({ token: confirm, metadata }))) as InvalidInput).issues).to.deep.equal(SPENT);
    const latest = await mailedTo(world, 'other@example.com', 'Confirm your new e-mail address');
    world.clock.advance(86_400_001);
    expect(((await rejection(world.confirmEmailChange.execute({ token: latest, metadata }))) as InvalidInput).issues).to.deep.equal(SPENT);
  });

  it('lets exactly one of two accounts racing for one new address have it; the loser is refused like a spent link', async () => {
    const world = await inMemoryWorld();
    const target = 'shared@example.com';
    const ada = await changeRequested(world, target);
    const { principal: grace } = await verifiedSignUp(world, aSignUpCommand({ name: 'Grace', email: 'grace@example.com' }));
    await world.requestEmailChange.execute({ ...aHolderProof(grace), newEmail: target });
    const graceLink = await mailedTo(world, target, 'Confirm your new e-mail address');
    const outcomes = await Promise.allSettled([world.confirmEmailChange.execute({ token: ada.confirm, metadata }), world.confirmEmailChange.execute({ token: graceLink, metadata })]);
    expect(outcomes.map((outcome) => outcome.status).sort()).to.deep.equal(['fulfilled', 'rejected']);
    const lost = outcomes.find((outcome) => outcome.status === 'rejected');
    expect((lost?.reason as InvalidInput).issues).to.deep.equal(SPENT);
    const holder = await world.users.findByEmail(target);
    expect([ada.signedUp.user.id, grace.userId]).to.include(holder?.id);
  });
});
