import { expect } from 'chai';
import { InvalidInput } from '../../../domain/domain-error.js';
import { aRequestMetadata } from '../../../../tests/support/builders.js';
import { inMemoryWorld } from '../../../../tests/support/in-memory-world.js';
import { issuesOf, tokenIn, worldWithAda } from '../../../../tests/support/mail-world.js';
import { rejection } from '../../../../tests/support/rejection.js';

const metadata = aRequestMetadata();

describe('RequestPasswordResetHandler', () => {
  it('records the request and sends nothing in the request; the dispatcher then mails a link to the account', async () => {
    const { world } = await worldWithAda();
    await world.deliverMail.execute();
    world.mail.delivered.length = 0;

    await world.requestPasswordReset.execute({ email: ' ADA@example.com ', metadata });
    expect(world.mail.delivered).to.deep.equal([]);
    const report = await world.deliverMail.execute();

    expect(report).to.deep.include({ sent: 1, failed: [] });
    const [mail] = world.mail.delivered;
    expect(mail?.to).to.equal('ada@example.com');
    expect(mail?.subject).to.equal('Reset your password');
    expect(mail?.text).to.match(/^Hello,\n/, 'no name: the address is not verified yet').and.include('https://app.example/reset-password#token=reset1.');
    const requested = world.store.events.find((event) => event.type === 'PasswordResetRequested');
    expect(mail?.idempotencyKey).to.equal(requested?.eventId);
    expect(await world.deliverMail.execute()).to.deep.include({ sent: 0, failed: [] });
  });

  it('records a request for an unknown address the same way, with no account and no mail', async () => {
    const { world } = await worldWithAda();
    await world.deliverMail.execute();
    const before = world.mail.delivered.length;

    await world.requestPasswordReset.execute({ email: 'nobody@example.com', metadata });
    await world.deliverMail.execute();

    expect(world.mail.delivered).to.have.length(before);
    expect(world.store.events.at(-1)).to.deep.include({ type: 'PasswordResetRequested', aggregateId: null, payload: { email: 'nobody@example.com', binding: null } });
  });

  it('refuses a malformed address only, with an entry for email', async () => {
    const world = await inMemoryWorld();
    const error = await rejection(world.requestPasswordReset.execute({ email: 'not an address', metadata }));
    expect(error).to.be.instanceOf(InvalidInput);
    expect(issuesOf(error).map((issue) => issue.field)).to.deep.equal(['email']);
  });

  it('records at most `max` requests per address per window, silently; a new window allows more', async () => {
    const { world } = await worldWithAda({ mail: { resetPerAddress: { max: 2, windowSeconds: 600 } } });
    for (let i = 0; i < 4; i++) await world.requestPasswordReset.execute({ email: 'ada@example.com', metadata });
    const count = () => world.store.events.filter((event) => event.type === 'PasswordResetRequested').length;
    expect(count()).to.equal(2);
    world.clock.advance(600_000);
    await world.requestPasswordReset.execute({ email: 'ada@example.com', metadata });
    expect(count()).to.equal(3);
  });

  it('keeps no token in any event: the request holds a keyed binding from which the token cannot be read', async () => {
    const { world } = await worldWithAda();
    await world.requestPasswordReset.execute({ email: 'ada@example.com', metadata });
    await world.deliverMail.execute();
    const tokens = world.mail.delivered.map(tokenIn);
    expect(tokens).to.have.length(2);
    const log = JSON.stringify(world.store.events);
    for (const token of tokens) {
      expect(log).not.to.include(token);
      expect(log).not.to.include(token.split('.').at(-1));
    }
  });
});
