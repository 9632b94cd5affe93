import { expect } from 'chai';
import { aRequestMetadata } from '../../../../tests/support/builders.js';
import { tokenIn, worldWithAda } from '../../../../tests/support/mail-world.js';

const metadata = aRequestMetadata();

describe('ResendVerificationHandler', () => {
  it('resend asks for another mail with a working link while unverified, and nothing once verified', async () => {
    const { world, signedUp } = await worldWithAda();
    world.clock.advance(1_000);
    await world.resendVerification.execute({ userId: signedUp.user.id, metadata });
    await world.deliverMail.execute();
    expect(world.mail.delivered.map((mail) => mail.subject)).to.deep.equal(['Confirm your e-mail address', 'Confirm your e-mail address']);
    const second = tokenIn(world.mail.delivered[1]);
    expect(second).not.to.equal(tokenIn(world.mail.delivered[0]));
    await world.verifyEmail.execute({ token: second, metadata });

    await world.resendVerification.execute({ userId: signedUp.user.id, metadata });
    await world.deliverMail.execute();
    expect(world.mail.delivered).to.have.length(2);
  });

  it('by address, 30 simultaneous requests for an unverified account leave exactly the cap in mails; an unknown address counts the same and mails nobody', async () => {
    const { world } = await worldWithAda({ mail: { verificationPerAddress: { max: 3, windowSeconds: 3600 } } });
    await Promise.all(Array.from({ length: 30 }, () => world.resendVerification.execute({ email: 'ADA@example.com ', metadata })));
    await Promise.all(Array.from({ length: 30 }, () => world.resendVerification.execute({ email: 'nobody@example.com', metadata })));
    await world.deliverMail.execute();
    expect(world.mail.delivered.map((mail) => mail.to), 'sign-up + 2 resends').to.deep.equal(['ada@example.com', 'ada@example.com', 'ada@example.com']);
  });

  it('mails an address at most verificationPerAddress.max times per window, the sign-up mail included; the same answer past it', async () => {
    const { world, signedUp } = await worldWithAda({ mail: { verificationPerAddress: { max: 3, windowSeconds: 3600 } } });
    for (let i = 0; i < 25; i++) {
      world.clock.advance(1_000);
      await world.resendVerification.execute({ userId: signedUp.user.id, metadata });
    }
    await world.deliverMail.execute();
    expect(world.mail.delivered, 'sign-up + 2 resends, then nothing').to.have.length(3);

    world.clock.advance(3600 * 1000);
    await world.resendVerification.execute({ userId: signedUp.user.id, metadata });
    await world.deliverMail.execute();
    expect(world.mail.delivered, 'a new window: one more').to.have.length(4);
  });

  it('records nothing and queues no mail for an address already verified', async () => {
    const { world, signedUp } = await worldWithAda();
    await world.deliverMail.execute();
    await world.verifyEmail.execute({ token: tokenIn(world.mail.delivered[0]), metadata });
    const events = world.store.events.length;

    world.clock.advance(1_000);
    await world.resendVerification.execute({ userId: signedUp.user.id, metadata });

    expect(world.store.events).to.have.length(events);
    expect(await world.deliverMail.execute()).to.deep.include({ sent: 0, failed: [] });
  });

  it('records a new EmailVerificationRequested for an unverified account, with the request metadata and no token in it', async () => {
    const { world, signedUp } = await worldWithAda();
    world.clock.advance(1_000);

    await world.resendVerification.execute({ userId: signedUp.user.id, metadata: aRequestMetadata({ clientIp: '198.51.100.7' }) });

    const requested = world.store.events.filter((event) => event.type === 'EmailVerificationRequested');
    expect(requested).to.have.length(2);
    expect(requested[1]).to.deep.include({ aggregateId: signedUp.user.id });
    expect(requested[1]?.metadata.clientIp).to.equal('198.51.100.7');
    await world.deliverMail.execute();
    const log = JSON.stringify(world.store.events);
    for (const mail of world.mail.delivered) expect(log).not.to.include(tokenIn(mail));
  });
});
