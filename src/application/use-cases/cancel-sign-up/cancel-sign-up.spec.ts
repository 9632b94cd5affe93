import { expect } from 'chai';
import { InvalidRefreshToken, InvalidToken } from '../../errors.js';
import { aRequestMetadata, aSignUpCommand } from '../../../../tests/support/builders.js';
import { issuesOf, tokenIn, worldWithAda } from '../../../../tests/support/mail-world.js';
import { rejection } from '../../../../tests/support/rejection.js';

const metadata = aRequestMetadata();
const REFUSED = [{ field: 'token', code: 'INVALID_OR_EXPIRED', message: 'is invalid, expired or already used' }];

describe('CancelSignUpHandler ("not me")', () => {
  it('erases the unverified account from the token of its verification mail: sessions end, the address is free, the log keeps only a pseudonymous SignUpCancelled', async () => {
    const { world, signedUp } = await worldWithAda();
    await world.deliverMail.execute();
    const token = tokenIn(world.mail.delivered[0]);
    await world.requestPasswordReset.execute({ email: 'ada@example.com', metadata });
    expect(await world.outbox.pendingCount(), 'a reset mail waits').to.equal(1);
    const userId = signedUp.user.id;

    await world.cancelSignUp.execute({ token, metadata });

    expect(await world.users.findById(userId)).to.equal(null);
    expect(await world.users.findByEmail('ada@example.com')).to.equal(null);
    expect(await rejection(world.authenticate.execute({ accessToken: signedUp.accessToken }))).to.be.instanceOf(InvalidToken);
    expect(await rejection(world.refreshSession.execute({ refreshToken: signedUp.refreshToken, metadata }))).to.be.instanceOf(InvalidRefreshToken);
    const left = world.store.events.filter((event) => event.aggregateId === userId);
    expect(left.map((event) => ({ type: event.type, payload: event.payload }))).to.deep.equal([{ type: 'SignUpCancelled', payload: { reason: 'not_me' } }]);
    expect(JSON.stringify(world.store.events.filter((event) => event.aggregateId === userId))).to.not.include('ada@example.com');
    expect(await world.outbox.pendingCount(), 'the reset mail still due went with the account').to.equal(0);

    const again = await world.signUp.execute(aSignUpCommand());
    expect(again.user.id).to.not.equal(userId);
    expect(issuesOf(await rejection(world.cancelSignUp.execute({ token, metadata }))), 'the link works once').to.deep.equal(REFUSED);
  });

  it('refuses the token once the address is verified: a verified account is never erased this way', async () => {
    const { world, signedUp } = await worldWithAda();
    await world.deliverMail.execute();
    const token = tokenIn(world.mail.delivered[0]);
    await world.verifyEmail.execute({ token, metadata });
    expect(issuesOf(await rejection(world.cancelSignUp.execute({ token, metadata })))).to.deep.equal(REFUSED);
    expect(await world.users.findById(signedUp.user.id)).to.not.equal(null);
  });

  it('refuses an account verified meanwhile (between its load and its erase): the account is kept, the token refused', async () => {
    let verifyFirst: (() => Promise<unknown>) | null = null;
    const { world, signedUp } = await worldWithAda({
      wrap: (ports) => ({
        users: {
          findByEmail: (email) => ports.users.findByEmail(email),
          findById: (id) => ports.users.findById(id),
          add: (user, events, opened, counted) => ports.users.add(user, events, opened, counted),
          save: (user, events, opened, changed, cleared) => ports.users.save(user, events, opened, changed, cleared),
          unverifiedBefore: (cutoff, limit) => ports.users.unverifiedBefore(cutoff, limit),
          erase: async (user, events) => {
            const verify = verifyFirst;
            verifyFirst = null;
            await verify?.();
            return ports.users.erase(user, events);
          },
        },
      }),
    });
    await world.deliverMail.execute();
    const token = tokenIn(world.mail.delivered[0]);
    verifyFirst = () => world.verifyEmail.execute({ token, metadata });

    expect(issuesOf(await rejection(world.cancelSignUp.execute({ token, metadata })))).to.deep.equal(REFUSED);
    expect(verifyFirst, 'the address was verified between the load and the erase').to.equal(null);
    expect((await world.users.findById(signedUp.user.id))?.emailVerified).to.equal(true);
    expect(world.store.events.filter((event) => event.type === 'SignUpCancelled')).to.deep.equal([]);
  });

  it('of a confirmation and a cancellation sent at once, exactly one takes effect', async () => {
    const { world, signedUp } = await worldWithAda();
    await world.deliverMail.execute();
    const token = tokenIn(world.mail.delivered[0]);
    const [verified, cancelled] = await Promise.allSettled([world.verifyEmail.execute({ token, metadata }), world.cancelSignUp.execute({ token, metadata })]);
    expect([verified.status, cancelled.status].sort()).to.deep.equal(['fulfilled', 'rejected']);
    for (const result of [verified, cancelled]) if (result.status === 'rejected') expect(issuesOf(result.reason), 'the loser: the token refused').to.deep.equal(REFUSED);
    const user = await world.users.findById(signedUp.user.id);
    expect(user === null).to.equal(cancelled.status === 'fulfilled');
    if (user) expect(user.emailVerified).to.equal(true);
  });

  it('of 20 simultaneous cancellations with one token, exactly one erases the account; the others get the token refused', async () => {
    const { world, signedUp } = await worldWithAda();
    await world.deliverMail.execute();
    const token = tokenIn(world.mail.delivered[0]);
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => world.cancelSignUp.execute({ token, metadata })));
    expect(results.filter((result) => result.status === 'fulfilled')).to.have.length(1);
    for (const result of results) if (result.status === 'rejected') expect(issuesOf(result.reason)).to.deep.equal(REFUSED);
    expect(world.store.events.filter((event) => event.type === 'SignUpCancelled' && event.aggregateId === signedUp.user.id)).to.have.length(1);
  });

  it('the verification mail offers both actions for its one token, and warns against confirming an address one never signed up for', async () => {
    const { world } = await worldWithAda();
    await world.deliverMail.execute();
    const text = world.mail.delivered[0]?.text ?? '';
    const token = tokenIn(world.mail.delivered[0]);
    expect(text).to.include(`/verify-email#token=${token}`).and.include(`/cancel-sign-up#token=${token}`);
    expect(text).to.include('If you did not sign up, do not confirm');
  });
});
