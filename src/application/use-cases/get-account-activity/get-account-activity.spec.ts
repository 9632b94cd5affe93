import { expect } from 'chai';
import { InvalidCursor, InvalidToken } from '../../errors.js';
import { aRequestMetadata, aSignInCommand, aSignUpCommand } from '../../../../tests/support/builders.js';
import { inMemoryWorld } from '../../../../tests/support/in-memory-world.js';
import { rejection } from '../../../../tests/support/rejection.js';


async function adaWithHistory() {
  const world = await inMemoryWorld();
  const { user } = await world.signUp.execute(aSignUpCommand({ metadata: aRequestMetadata({ userAgent: 'signup-agent' }) }));
  for (const n of [1, 2, 3]) {
    world.clock.advance(60_000);
    await rejection(world.signIn.execute(aSignInCommand({ password: 'not the password', metadata: aRequestMetadata({ clientIp: `198.51.100.${n}`, userAgent: `attacker/${n}` }) })));
  }
  world.clock.advance(60_000);
  world.hasher.version = 2;
  await world.signIn.execute(aSignInCommand({ metadata: aRequestMetadata({ userAgent: 'browser' }) }));
  await world.signUp.execute(aSignUpCommand({ email: 'grace@example.com' }));
  await rejection(world.signIn.execute(aSignInCommand({ email: 'grace@example.com', password: 'not the password' })));
  await rejection(world.signIn.execute(aSignInCommand({ email: 'nobody@example.com' })));
  return { world, userId: user.id };
}

describe('GetAccountActivityHandler', () => {
  it("lists the account's own activity newest first, with time, address, agent and failure reason", async () => {
    const { world, userId } = await adaWithHistory();
    const page = await world.getAccountActivity.execute({ userId });

    expect(page.nextCursor).to.equal(null);
    expect(page.entries.map((entry) => [entry.type, entry.userAgent, entry.reason])).to.deep.equal([
      ['session_started', 'browser', undefined],
      ['user_signed_in', 'browser', undefined],
      ['password_rehashed', 'browser', undefined],
      ['sign_in_failed', 'attacker/3', 'wrong_password'],
      ['sign_in_failed', 'attacker/2', 'wrong_password'],
      ['sign_in_failed', 'attacker/1', 'wrong_password'],
      ['session_started', 'signup-agent', undefined],
      ['email_verification_requested', 'signup-agent', undefined],
      ['user_registered', 'signup-agent', undefined],
    ]);
    expect(page.entries[3]).to.deep.equal({
      type: 'sign_in_failed',
      occurredAt: new Date('2026-01-01T00:03:00.000Z'),
      clientIp: '198.51.100.3',
      userAgent: 'attacker/3',
      reason: 'wrong_password',
    });
  });

  it('pages with the cursor to the end, losing and repeating nothing, and defaults to 20', async () => {
    const { world, userId } = await adaWithHistory();
    const all = (await world.getAccountActivity.execute({ userId })).entries;
    const seen = [];
    let cursor: string | null = null;
    do {
      const page = await world.getAccountActivity.execute({ userId, limit: 4, cursor });
      expect(page.entries.length).to.be.at.most(4);
      seen.push(...page.entries);
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(seen).to.deep.equal(all);
    expect(all).to.have.length(9);

    for (let n = 0; n < 20; n++) await world.signIn.execute(aSignInCommand());
    const first = await world.getAccountActivity.execute({ userId });
    expect(first.entries).to.have.length(20);
    expect(first.nextCursor).to.be.a('string');
  });

  it('keeps the page size within 1..100 whatever it is given, and refuses a cursor it did not issue as InvalidCursor', async () => {
    const { world, userId } = await adaWithHistory();
    for (let n = 0; n < 100; n++) await world.signIn.execute(aSignInCommand());
    expect((await world.getAccountActivity.execute({ userId, limit: 0 })).entries).to.have.length(1);
    expect((await world.getAccountActivity.execute({ userId, limit: 100 })).entries).to.have.length(100);
    expect((await world.getAccountActivity.execute({ userId, limit: 1000 })).entries).to.have.length(100);
    expect(await rejection(world.getAccountActivity.execute({ userId, cursor: 'not-a-cursor' }))).to.be.instanceOf(InvalidCursor);
  });

  it('answers InvalidToken for a subject that does not exist', async () => {
    const { world } = await adaWithHistory();
    expect(await rejection(world.getAccountActivity.execute({ userId: 'no-such-user' }))).to.be.instanceOf(InvalidToken);
  });
});
