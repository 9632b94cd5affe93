import { expect } from 'chai';
import { aRequestMetadata, aSignUpCommand } from '../../../../tests/support/builders.js';
import { inMemoryWorld } from '../../../../tests/support/in-memory-world.js';
import { tokenIn, worldWithAda } from '../../../../tests/support/mail-world.js';
import { withPasskeys } from '../../../../tests/support/passkeys.js';
import { throughProvider } from '../../../../tests/support/social.js';

describe('DeliverMailHandler', () => {
  it('retries a refused mail with exponential backoff, and sends it exactly once when the transport accepts', async () => {
    const { world } = await worldWithAda();
    world.mail.refusing = 3;

    expect((await world.deliverMail.execute()).failed.map((failure) => failure.attempts)).to.deep.equal([1]);
    world.clock.advance(999);
    expect(await world.deliverMail.execute(), 'not before the first backoff (1 s)').to.deep.include({ sent: 0, failed: [] });
    world.clock.advance(1);
    expect((await world.deliverMail.execute()).failed.map((failure) => failure.attempts)).to.deep.equal([2]);
    world.clock.advance(1_999);
    expect(await world.deliverMail.execute(), 'the second backoff doubles (2 s)').to.deep.include({ sent: 0, failed: [] });
    world.clock.advance(1);
    expect((await world.deliverMail.execute()).failed).to.have.length(1);
    world.clock.advance(4_000);
    expect(await world.deliverMail.execute()).to.deep.include({ sent: 1, failed: [] });
    world.clock.advance(3_600_000);
    expect(await world.deliverMail.execute()).to.deep.include({ sent: 0, failed: [] });
    expect(world.mail.delivered.map((mail) => mail.subject)).to.deep.equal(['Confirm your e-mail address']);
  });

  it('keeps every mail through a relay outage longer than MAIL_MAX_ATTEMPTS runs: no attempt counted, no dead letter, backoff doubling, then each sent once', async () => {
    const { world } = await worldWithAda();
    await world.requestPasswordReset.execute({ email: 'ada@example.com', metadata: aRequestMetadata() });
    world.mail.relayDown = true;

    const first = await world.deliverMail.execute();
    expect(first).to.deep.include({ sent: 0, failed: [] });
    expect(first.relay).to.deep.include({ state: 'failing', postponed: 2 });
    let backoff = 1_000;
    for (let run = 2; run <= 12; run++) {
      world.clock.advance(backoff - 1);
      expect((await world.deliverMail.execute()).relay.postponed, `run ${run}: not before the relay's backoff`).to.equal(0);
      world.clock.advance(1);
      const report = await world.deliverMail.execute();
      expect(report, `run ${run}`).to.deep.include({ sent: 0, failed: [] });
      expect(report.relay.state).to.equal('failing');
      backoff = Math.min(2 * backoff, 300_000);
    }
    expect(await world.outbox.deadLetters(10)).to.deep.equal([]);
    expect(await world.outbox.pendingCount()).to.equal(2);

    world.mail.relayDown = false;
    world.clock.advance(backoff);
    const recovered = await world.deliverMail.execute();
    expect(recovered).to.deep.include({ sent: 2, failed: [] });
    expect(recovered.relay.state).to.equal('up');
    world.clock.advance(3_600_000);
    expect(await world.deliverMail.execute()).to.deep.include({ sent: 0, failed: [] });
    expect(world.mail.delivered.map((mail) => mail.subject).sort()).to.deep.equal(['Confirm your e-mail address', 'Reset your password']);
  });

  it('mails the account a notice when its owner changes the password (not only after a reset)', async () => {
    const { world, signedUp } = await worldWithAda();
    await world.deliverMail.execute();
    world.mail.delivered.length = 0;
    const principal = await world.authenticate.execute({ accessToken: signedUp.accessToken });

    await world.changePassword.execute({ principal, currentPassword: 'analytical engine 1843', newPassword: 'difference engine 1822', metadata: aRequestMetadata() });
    expect(await world.deliverMail.execute()).to.deep.include({ sent: 1, failed: [] });

    const [notice] = world.mail.delivered;
    expect(notice?.to).to.equal('ada@example.com');
    expect(notice?.subject).to.equal('Your password was changed');
    expect(notice?.text).to.include('your password was changed').and.include('reset your password now');
    expect(notice?.idempotencyKey).to.equal(world.store.events.find((event) => event.type === 'PasswordChanged')?.eventId);
  });

  it('mails a notice when a passkey is added (only a verified address can add one), naming it escaped', async () => {
    const { world, principal, register } = await withPasskeys();
    await world.deliverMail.execute();
    await register({}, principal, 'Phone <b>');
    await world.deliverMail.execute();
    const verified = world.mail.delivered.at(-1);
    expect(verified?.subject).to.equal('A passkey was added');
    expect(verified?.text).to.include('a passkey named "Phone <b>" was added');
    expect(verified?.html).to.include('Phone &lt;b&gt;');
  });

  it('mails a notice for every other change of a way in: a passkey removed, a provider identity linked and unlinked', async () => {
    const { world, principal, register } = await withPasskeys();
    const { id } = await register({}, principal, 'Phone');
    await world.removePasskey.execute({ principal, id, metadata: aRequestMetadata() });
    await throughProvider(world, { subject: 'ada-gh', email: 'ada@example.com' }, { link: principal, provider: 'github' });
    const [identity] = await world.identities.listByUser(principal.userId);
    await world.unlinkIdentity.execute({ principal, id: identity?.id ?? '', metadata: aRequestMetadata() });
    await world.deliverMail.execute();
    const subjects = world.mail.delivered.map((mail) => mail.subject);
    expect(subjects).to.include.members(['A passkey was removed', 'A sign-in was linked to your account', 'A sign-in was unlinked from your account']);
    expect(world.mail.delivered.find((mail) => mail.subject === 'A sign-in was unlinked from your account')?.text).to.include('your github account was unlinked');
  });

  it('keeps the text a sender chose out of mail to an unverified address: no name in the verification mail', async () => {
    const world = await inMemoryWorld();
    const lure = 'Security team: your account is locked, visit https://evil.example/unlock';
    await world.signUp.execute(aSignUpCommand({ email: 'victim@example.com', name: lure }));
    await world.deliverMail.execute();
    const [mail] = world.mail.delivered;
    expect(mail?.subject).to.equal('Confirm your e-mail address');
    expect(mail?.text).to.match(/^Hello,\n/).and.not.include('evil.example');
    expect(mail?.html).to.not.include('evil.example');
  });

  it('greets a verified address by name: escaped in the HTML body, as typed in the text body', async () => {
    const world = await inMemoryWorld();
    await world.signUp.execute(aSignUpCommand({ name: '<b>Ada</b> & "co"' }));
    await world.deliverMail.execute();
    await world.verifyEmail.execute({ token: tokenIn(world.mail.delivered.at(-1)), metadata: aRequestMetadata() });
    await world.requestPasswordReset.execute({ email: 'ada@example.com', metadata: aRequestMetadata() });
    await world.deliverMail.execute();
    const mail = world.mail.delivered.at(-1);
    expect(mail?.subject).to.equal('Reset your password');
    expect(mail?.html).to.include('Hello &lt;b&gt;Ada&lt;/b&gt; &amp; &quot;co&quot;,').and.not.include('<b>Ada</b>');
    expect(mail?.text).to.include('Hello <b>Ada</b> & "co",');
  });

  it('reports a refused mail in `failed` with its event id and the transport error, and sends it under that id later', async () => {
    const { world } = await worldWithAda();
    const requested = world.store.events.find((event) => event.type === 'EmailVerificationRequested');
    world.mail.refusing = 1;

    const report = await world.deliverMail.execute();

    expect(report.sent).to.equal(0);
    expect(report.failed.map(({ eventId, attempts }) => ({ eventId, attempts }))).to.deep.equal([{ eventId: requested?.eventId, attempts: 1 }]);
    expect((report.failed[0]?.error as Error).message).to.equal('451 try again later');
    expect(world.mail.delivered).to.deep.equal([]);
    world.clock.advance(1_000);
    expect(await world.deliverMail.execute()).to.deep.include({ sent: 1, failed: [] });
    expect(world.mail.delivered.map((mail) => mail.idempotencyKey)).to.deep.equal([requested?.eventId]);
  });

  it('dead-letters a mail after MAIL_MAX_ATTEMPTS (8) failures: reported once as a dead letter, kept with its last error, never retried', async () => {
    const { world } = await worldWithAda();
    const requested = world.store.events.find((event) => event.type === 'EmailVerificationRequested');
    world.mail.refusing = 1_000;
    const reports = [];
    for (let attempt = 1; attempt <= 8; attempt++) {
      reports.push(await world.deliverMail.execute());
      world.clock.advance(300_000);
    }
    expect(reports.map((report) => report.failed.map((failure) => [failure.attempts, failure.deadLetter])).flat()).to.deep.equal([
      ...[1, 2, 3, 4, 5, 6, 7].map((attempts) => [attempts, false]),
      [8, true],
    ]);
    world.clock.advance(3_600_000);
    expect(await world.deliverMail.execute()).to.deep.include({ sent: 0, failed: [] });
    const outbox = world.outbox;
    expect(await outbox.deadLetters(10)).to.deep.equal([{ eventId: requested?.eventId, attempts: 8, failedAt: new Date(world.clock.now().getTime() - 3_900_000), lastError: '451 try again later' }]);
    expect(await outbox.pendingCount()).to.equal(0);
  });

  it('dead-letters at once a mail the transport refuses for good (an SMTP 5xx), keeping the others going', async () => {
    const { world } = await worldWithAda();
    await world.requestPasswordReset.execute({ email: 'ada@example.com', metadata: aRequestMetadata() });
    world.mail.refusingPermanently = 1;

    const report = await world.deliverMail.execute();

    expect(report.sent).to.equal(1);
    expect(report.failed.map(({ attempts, deadLetter }) => ({ attempts, deadLetter }))).to.deep.equal([{ attempts: 1, deadLetter: true }]);
    world.clock.advance(3_600_000);
    expect(await world.deliverMail.execute()).to.deep.include({ sent: 0, failed: [] });
    expect((await world.outbox.deadLetters(10)).map((dead) => dead.lastError)).to.deep.equal(['550 no such mailbox']);
  });

  it('sends up to MAIL_SEND_CONCURRENCY (8) mails at once: a slow address holds up no other mail', async () => {
    const world = await inMemoryWorld();
    for (let i = 0; i < 12; i++) await world.signUp.execute(aSignUpCommand({ email: `user${i}@example.com` }));
    const release: Array<() => void> = [];
    let inFlight = 0;
    let most = 0;
    const send = world.mail.send.bind(world.mail);
    world.mail.send = async (mail) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      if (mail.to === 'user0@example.com') await new Promise<void>((resolve) => release.push(resolve));
      else await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight -= 1;
      await send(mail);
    };

    const run = world.deliverMail.execute();
    for (let waited = 0; world.mail.delivered.length < 11 && waited < 100; waited++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(world.mail.delivered.map((mail) => mail.to), 'every other mail leaves while user0 hangs').to.have.length(11);
    release.forEach((resolve) => resolve());
    expect(await run).to.deep.include({ sent: 12, failed: [] });
    expect(most).to.equal(8);
  });

  it('marks the mails of a batch sent in one outbox write, after their sends, and never claims them again', async () => {
    const world = await inMemoryWorld();
    for (let i = 0; i < 12; i++) await world.signUp.execute(aSignUpCommand({ email: `user${i}@example.com` }));
    const marks: string[][] = [];
    const markSent = world.outbox.markSent.bind(world.outbox);
    world.outbox.markSent = async (eventIds) => {
      marks.push([...eventIds]);
      await markSent(eventIds);
    };

    expect(await world.deliverMail.execute()).to.deep.include({ sent: 12, failed: [] });
    expect(marks.map((ids) => ids.length)).to.deep.equal([12]);
    expect(await world.outbox.pendingCount()).to.equal(0);
    expect(await world.deliverMail.execute()).to.deep.include({ sent: 0, failed: [] });
    expect(world.mail.delivered).to.have.length(12);
  });
});
