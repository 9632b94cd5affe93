import { expect } from 'chai';
import { aRequestMetadata, aSignInCommand, aSignUpCommand, completedSignIn } from '../../support/builders.js';
import { inMemoryWorld } from '../../support/in-memory-world.js';
import { socialSignIn } from '../../support/social.js';
import { verifiedSignUp } from '../../support/verified.js';

const LAPTOP = aRequestMetadata({ clientIp: '203.0.113.7', userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0' });
const PHONE = aRequestMetadata({ clientIp: '198.51.100.20', userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 Version/18.1 Mobile/15E148 Safari/604.1' });

const notices = (world: Awaited<ReturnType<typeof inMemoryWorld>>) => world.store.events.filter((event) => event.type === 'NewDeviceSignedIn');

describe('New-device notice (NEW_DEVICE_NOTICE)', () => {
  it('mails the owner once for a sign-in from a device and network none of its live sessions has, and never for a known one', async () => {
    const world = await inMemoryWorld({ sessions: { newDeviceNotice: true } });
    await verifiedSignUp(world, aSignUpCommand({ metadata: LAPTOP }));
    await completedSignIn(world.signIn.execute(aSignInCommand({ metadata: aRequestMetadata({ ...LAPTOP, clientIp: '203.0.113.99' }) })));
    expect(notices(world), 'the same laptop on the same /24').to.deep.equal([]);
    const phone = await completedSignIn(world.signIn.execute(aSignInCommand({ metadata: PHONE })));
    expect(notices(world).map((event) => event.payload)).to.deep.equal([
      { email: 'ada@example.com', sessionId: (await world.authenticate.execute({ accessToken: phone.accessToken })).sessionId, device: 'Safari on iOS', network: '198.51.100.0/24' },
    ]);
    await completedSignIn(world.signIn.execute(aSignInCommand({ metadata: PHONE })));
    expect(notices(world), 'the phone is known now').to.have.length(1);
    await world.deliverMail.execute();
    const mail = world.mail.delivered.find((sent) => sent.subject === 'A new sign-in to your account');
    expect(mail?.text).to.include('Safari on iOS').and.include('198.51.100.0/24').and.include('https://app.example/sessions');
  });

  it('covers every way in (here a social sign-in), and is off unless asked for', async () => {
    const world = await inMemoryWorld({ sessions: { newDeviceNotice: true } });
    await completedSignIn(socialSignIn(world, { subject: 'grace', email: 'grace@example.com' }));
    expect(notices(world), 'the first session of a new account').to.have.length(1);
    const off = await inMemoryWorld();
    await off.signUp.execute(aSignUpCommand({ metadata: LAPTOP }));
    await completedSignIn(off.signIn.execute(aSignInCommand({ metadata: PHONE })));
    expect(notices(off)).to.deep.equal([]);
  });

  it('asks none for an address nobody proved, and mails at most the per-address cap, the others sent as nothing (issue 61)', async () => {
    const world = await inMemoryWorld({ sessions: { newDeviceNotice: true }, mail: { verificationPerAddress: { max: 2, windowSeconds: 3600 } } });
    await world.signUp.execute(aSignUpCommand({ metadata: LAPTOP }));
    await completedSignIn(world.signIn.execute(aSignInCommand({ metadata: PHONE })));
    expect(notices(world), 'unproven').to.deep.equal([]);
    const grace = aSignUpCommand({ email: 'grace@example.com', metadata: LAPTOP });
    await verifiedSignUp(world, grace);
    for (const n of [1, 2, 3, 4]) await completedSignIn(world.signIn.execute(aSignInCommand({ email: grace.email, metadata: aRequestMetadata({ ...PHONE, clientIp: `192.0.${n}.1` }) })));
    expect(notices(world)).to.have.length(4);
    await world.deliverMail.execute();
    expect(world.mail.delivered.filter((sent) => sent.subject === 'A new sign-in to your account').map((sent) => sent.to)).to.deep.equal(['grace@example.com', 'grace@example.com']);
    expect(await world.outbox.claim(world.clock.now(), 60_000, 10), 'the others done, not retried').to.deep.equal([]);
  });
});
