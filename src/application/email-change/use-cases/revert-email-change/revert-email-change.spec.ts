import { expect } from 'chai';
import type { InvalidInput } from '../../../../domain/domain-error.js';
import { InvalidToken } from '../../../errors.js';
import { inMemoryWorld } from '../../../../../tests/support/in-memory-world.js';
import { aHolderProof, aRequestMetadata, aSignInCommand, aSignUpCommand, completedSignIn } from '../../../../../tests/support/builders.js';
import { rejection } from '../../../../../tests/support/rejection.js';
import { changeRequested, mailedTo } from '../../../../../tests/support/email-change.js';
import { verifiedSignUp } from '../../../../../tests/support/verified.js';

const metadata = aRequestMetadata();
const SPENT = [{ field: 'token', code: 'INVALID_OR_EXPIRED', message: 'is invalid, expired or already used' }];
const NOTICE = 'Your e-mail address was changed';
type World = Awaited<ReturnType<typeof inMemoryWorld>>;

/** Ada's account moved to the intruder's address (confirmed): the revert link of the notice mailed to ada@example.com. */
async function changed(world: World, newEmail = 'intruder@example.com') {
  const asked = await changeRequested(world, newEmail);
  await world.confirmEmailChange.execute({ token: asked.confirm, metadata });
  return { ...asked, revert: await mailedTo(world, 'ada@example.com', NOTICE) };
}
const refusal = async (world: World, token: string) => ((await rejection(world.revertEmailChange.execute({ token, metadata }))) as InvalidInput).issues;

describe('RevertEmailChangeHandler (revertEmailChange)', () => {
  it('takes the account back to the previous address, verified: every session ends, a pending change ends, a reset link leaves', async () => {
    const world = await inMemoryWorld();
    const { signedUp, principal, revert } = await changed(world);
    expect(revert).to.match(/^email-revert1\./);
    await world.requestEmailChange.execute({ ...aHolderProof(principal), newEmail: 'second@example.com' });
    const pendingConfirm = await mailedTo(world, 'second@example.com', 'Confirm your new e-mail address');
    await world.revertEmailChange.execute({ token: revert, metadata });
    const user = await world.users.findById(signedUp.user.id);
    expect([user?.email.value, user?.emailVerified]).to.deep.equal(['ada@example.com', true]);
    expect((await world.users.findByEmail('intruder@example.com'))).to.equal(null);
    expect(await rejection(world.authenticate.execute({ accessToken: signedUp.accessToken }))).to.be.instanceOf(InvalidToken);
    expect(await world.emailChanges.pendingOf(signedUp.user.id)).to.equal(null);
    expect(((await rejection(world.confirmEmailChange.execute({ token: pendingConfirm, metadata }))) as InvalidInput).issues).to.deep.equal(SPENT);
    expect((await completedSignIn(world.signIn.execute(aSignInCommand({ email: 'ada@example.com' })))).user.id).to.equal(signedUp.user.id);
    const reset = await mailedTo(world, 'ada@example.com', 'Reset your password');
    await world.confirmPasswordReset.execute({ token: reset, newPassword: 'a password only Ada knows 1815', metadata });
    const reverted = world.store.events.find((event) => event.type === 'EmailChangeReverted');
    expect(reverted?.payload).to.deep.equal({ email: 'ada@example.com', revertedFrom: 'intruder@example.com' });
    expect(world.store.events.find((event) => event.type === 'SessionsEnded' && event.payload.reason === 'email_change_reverted')).to.not.equal(undefined);
    expect(JSON.stringify(world.store.events)).to.not.include(revert.split('.').at(-1));
    expect(await refusal(world, revert)).to.deep.equal(SPENT);
  });

  it('refuses a link older than 7 days (and takes one of exactly 7 days), and another purpose\'s token', async () => {
    const world = await inMemoryWorld();
    const { revert, confirm, cancel } = await changed(world);
    expect(await refusal(world, confirm)).to.deep.equal(SPENT);
    expect(await refusal(world, cancel)).to.deep.equal(SPENT);
    world.clock.advance(7 * 86_400_000 + 1);
    expect(await refusal(world, revert)).to.deep.equal(SPENT);
    expect((await world.users.findByEmail('intruder@example.com'))?.email.value).to.equal('intruder@example.com');

    const inTime = await inMemoryWorld();
    const late = await changed(inTime);
    inTime.clock.advance(7 * 86_400_000);
    await inTime.revertEmailChange.execute({ token: late.revert, metadata });
    expect((await inTime.users.findByEmail('ada@example.com'))?.id).to.equal(late.signedUp.user.id);
  });

  it('refuses the link of a change the account moved on from', async () => {
    const other = await inMemoryWorld();
    const first = await changed(other);
    const principal = await other.authenticate.execute({ accessToken: first.signedUp.accessToken });
    await other.requestEmailChange.execute({ ...aHolderProof(principal), newEmail: 'third@example.com' });
    await other.confirmEmailChange.execute({ token: await mailedTo(other, 'third@example.com', 'Confirm your new e-mail address'), metadata });
    expect(await refusal(other, first.revert), 'the address moved again').to.deep.equal(SPENT);
    expect((await other.users.findById(first.signedUp.user.id))?.email.value).to.equal('third@example.com');
  });

  it('refuses the link like a spent one when another account took the previous address meanwhile', async () => {
    const world = await inMemoryWorld();
    const { revert } = await changed(world);
    const { signedUp: grace } = await verifiedSignUp(world, aSignUpCommand({ name: 'Grace', email: 'ada@example.com' }));
    expect(await refusal(world, revert)).to.deep.equal(SPENT);
    expect((await world.users.findByEmail('ada@example.com'))?.id).to.equal(grace.user.id);
    expect(world.store.events.filter((event) => event.type === 'EmailChangeReverted')).to.have.length(0);
  });

  it('lets exactly one of 10 reverts with one link through; the others are refused like a spent link', async () => {
    const world = await inMemoryWorld();
    const { revert } = await changed(world);
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => world.revertEmailChange.execute({ token: revert, metadata })));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).to.have.length(1);
    for (const outcome of outcomes) if (outcome.status === 'rejected') expect((outcome.reason as InvalidInput).issues).to.deep.equal(SPENT);
    expect(world.store.events.filter((event) => event.type === 'EmailChangeReverted')).to.have.length(1);
  });
});
