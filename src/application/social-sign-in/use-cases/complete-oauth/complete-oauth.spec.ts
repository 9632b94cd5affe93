import { expect } from 'chai';
import { InvalidInput } from '../../../../domain/domain-error.js';
import { inMemoryWorld } from '../../../../../tests/support/in-memory-world.js';
import { aRequestMetadata, aSignUpCommand } from '../../../../../tests/support/builders.js';
import { rejection } from '../../../../../tests/support/rejection.js';
import { APP_URL, aFlowRequest, aPkcePair, returned, stateOf, throughProvider } from '../../../../../tests/support/social.js';
import { verifiedSignUp } from '../../../../../tests/support/verified.js';
import { tokenIn } from '../../../../../tests/support/mail-world.js';

const metadata = aRequestMetadata();
type World = Awaited<ReturnType<typeof inMemoryWorld>>;

const startedState = async (world: World, provider = 'corp', redirectTo = APP_URL) =>
  stateOf((await world.beginOauth.execute(aFlowRequest(aPkcePair().challenge, { provider, redirectTo }))).location);

const eventTypes = (world: World) => world.store.events.map((event) => event.type);

describe('CompleteOAuthHandler (completeOauth)', () => {
  it("makes a new verified account without a password for a new identity whose address the provider proved, and sends the app a one-time code", async () => {
    const world = await inMemoryWorld();
    const { params } = await throughProvider(world, { subject: 'ada-1', email: 'Ada@Example.com', givenName: 'Ada', familyName: 'King' });
    expect(Object.keys(params)).to.deep.equal(['code']);
    expect(params['code']).to.have.length(43);
    const user = await world.users.findByEmail('ada@example.com');
    expect(user && { verified: user.emailVerified, password: user.hasPassword, name: user.name.value, lastname: user.lastname.value }).to.deep.equal({ verified: true, password: false, name: 'Ada', lastname: 'King' });
    expect(eventTypes(world)).to.include.members(['UserRegistered', 'EmailVerified', 'IdentityLinked']);
    expect((await world.identities.listByUser(user?.id ?? '')).map(({ issuer, subject, provider }) => ({ issuer, subject, provider }))).to.deep.equal([
      { issuer: world.providers.issuerOf('corp'), subject: 'ada-1', provider: 'corp' },
    ]);
  });

  it('reaches the same account by the same subject whatever address it shows later, and never by the address alone', async () => {
    const world = await inMemoryWorld();
    await throughProvider(world, { subject: 'ada-1', email: 'ada@example.com' });
    await throughProvider(world, { subject: 'ada-1', email: 'ada.lovelace@newmail.example' });
    expect(await world.users.findByEmail('ada.lovelace@newmail.example'), 'no account for the new address').to.equal(null);
    const { params } = await throughProvider(world, { subject: 'someone-else', email: 'ada@example.com', emailVerified: false });
    expect(params, 'an unproven address names an account that is not joined').to.deep.equal({ error: 'account_exists' });
  });

  it("takes a state once, only at its provider's callback and within ten minutes: otherwise 400, no redirect", async () => {
    const world = await inMemoryWorld();
    const state = await startedState(world);
    const query = world.providers.signIn('corp', state, { subject: 'ada-1' });
    expect((await world.completeOauth.execute({ provider: 'corp', query, metadata })).location).to.include('code=');
    const replayed = await rejection(world.completeOauth.execute({ provider: 'corp', query, metadata }));
    expect((replayed as InvalidInput).issues).to.deep.equal([{ field: 'state', code: 'INVALID_OR_EXPIRED', message: 'is unknown, expired or already used' }]);
    const mixedUp = await startedState(world, 'corp');
    expect(await rejection(world.completeOauth.execute({ provider: 'github', query: world.providers.signIn('github', mixedUp, { subject: 'x' }), metadata }))).to.be.instanceOf(InvalidInput);
    const late = await startedState(world);
    world.clock.advance(600_001);
    expect(await rejection(world.completeOauth.execute({ provider: 'corp', query: world.providers.signIn('corp', late, { subject: 'x' }), metadata }))).to.be.instanceOf(InvalidInput);
    expect(await rejection(world.completeOauth.execute({ provider: 'corp', query: { code: 'c' }, metadata }))).to.be.instanceOf(InvalidInput);
  });

  it("sends the provider's refusal and its unavailability to the app as error=, its own query kept, and makes no account", async () => {
    const world = await inMemoryWorld();
    const denied = await startedState(world, 'corp', `${APP_URL}?tab=1`);
    expect(returned((await world.completeOauth.execute({ provider: 'corp', query: world.providers.deny(denied), metadata })).location)).to.deep.equal({ tab: '1', error: 'access_denied' });
    const down = await startedState(world);
    const query = world.providers.signIn('corp', down, { subject: 'ada-1' });
    world.providers.down('corp');
    expect(returned((await world.completeOauth.execute({ provider: 'corp', query, metadata })).location)).to.deep.equal({ error: 'temporarily_unavailable' });
    expect(await world.users.findByEmail('ada-1@example.com')).to.equal(null);
  });

  it('links a new identity to the verified account of the address it proves, and signs that account in', async () => {
    const world = await inMemoryWorld();
    const { signedUp } = await verifiedSignUp(world);
    const { params } = await throughProvider(world, { subject: 'ada-at-corp', email: 'ada@example.com' });
    expect(params).to.have.property('code');
    expect((await world.identities.listByUser(signedUp.user.id)).map((identity) => identity.subject)).to.deep.equal(['ada-at-corp']);
  });

  it("never joins an account whose address nobody proved (pre-hijacking): account_exists, that account unchanged", async () => {
    const world = await inMemoryWorld();
    const squatted = await world.signUp.execute(aSignUpCommand());
    const before = world.store.events.length;
    const { params } = await throughProvider(world, { subject: 'victim', email: 'ada@example.com', emailVerified: true });
    expect(params).to.deep.equal({ error: 'account_exists' });
    expect(await world.identities.listByUser(squatted.user.id)).to.deep.equal([]);
    expect(world.store.events.length, 'nothing recorded').to.equal(before);
  });

  it("makes an unverified account with the sign-up's verification mail when the provider did not prove a free address", async () => {
    const world = await inMemoryWorld();
    await throughProvider(world, { subject: 'grace', email: 'grace@example.com', emailVerified: false, givenName: null, familyName: null, name: 'Grace Brewster Hopper' });
    const user = await world.users.findByEmail('grace@example.com');
    expect(user && { verified: user.emailVerified, name: user.name.value, lastname: user.lastname.value }).to.deep.equal({ verified: false, name: 'Grace Brewster', lastname: 'Hopper' });
    expect(eventTypes(world)).to.include('EmailVerificationRequested').and.not.include('EmailVerified');
  });

  it('refuses an identity that shows no usable address: email_required', async () => {
    const world = await inMemoryWorld();
    expect((await throughProvider(world, { subject: 'no-mail', email: null })).params).to.deep.equal({ error: 'email_required' });
  });

  it('never takes a proven look-alike local part (the Kelvin sign U+212A, full-width letters) to the k\u2026 account: email_required, nothing made', async () => {
    const world = await inMemoryWorld();
    const { signedUp } = await verifiedSignUp(world, aSignUpCommand({ email: 'kate@example.com' }));
    for (const email of ['\u212aate@example.com', '\uff4bate@example.com']) {
      const before = world.store.events.length;
      expect((await throughProvider(world, { subject: `look-alike ${email}`, email, emailVerified: true })).params, email).to.deep.equal({ error: 'email_required' });
      expect(world.store.events.length, `${email}: nothing recorded`).to.equal(before);
    }
    expect(await world.identities.listByUser(signedUp.user.id)).to.deep.equal([]);
    const empty = await inMemoryWorld();
    expect((await throughProvider(empty, { subject: 'kelvin', email: '\u212aim@example.com' })).params).to.deep.equal({ error: 'email_required' });
    expect(await empty.users.findByEmail('kim@example.com'), 'no account under the canonical form either').to.equal(null);
  });

  it('takes a proven address whose domain is spelled another way (full-width, upper case) to the account of its canonical form', async () => {
    const world = await inMemoryWorld();
    const { signedUp } = await verifiedSignUp(world, aSignUpCommand({ email: 'kate@example.com' }));
    const { params } = await throughProvider(world, { subject: 'kate-at-corp', email: 'Kate@\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45.COM', emailVerified: true });
    expect(params).to.have.property('code');
    expect((await world.identities.listByUser(signedUp.user.id)).map((identity) => identity.subject)).to.deep.equal(['kate-at-corp']);
  });

  it('gives simultaneous callbacks of one new identity one account between them', async () => {
    const world = await inMemoryWorld();
    const states = await Promise.all(Array.from({ length: 10 }, () => startedState(world)));
    const back = await Promise.all(states.map((state) => world.completeOauth.execute({ provider: 'corp', query: world.providers.signIn('corp', state, { subject: 'ada-1' }), metadata })));
    expect(back.every(({ location }) => returned(location)['code'] !== undefined)).to.equal(true);
    const user = await world.users.findByEmail('ada-1@example.com');
    expect(user && (await world.identities.listByUser(user.id))).to.have.length(1);
    expect(eventTypes(world).filter((type) => type === 'UserRegistered')).to.have.length(1);
  });

  it("loses a squatter's identity to the address's owner: a provider that did not prove the address makes an unverified account, and the owner's reset removes the identity", async () => {
    const world = await inMemoryWorld();
    await throughProvider(world, { subject: 'squatter', email: 'ada@example.com', emailVerified: false });
    const squatted = await world.users.findByEmail('ada@example.com');
    expect(squatted && (await world.identities.listByUser(squatted.id))).to.have.length(1);
    await world.requestPasswordReset.execute({ email: 'ada@example.com', metadata });
    await world.deliverMail.execute();
    const token = tokenIn(world.mail.delivered.find((mail) => mail.subject === 'Reset your password'));
    await world.confirmPasswordReset.execute({ token, newPassword: 'difference engine 1822', metadata });
    expect(await world.identities.listByUser(squatted?.id ?? ''), 'the identity signs in no more').to.deep.equal([]);
    const { params } = await throughProvider(world, { subject: 'squatter', email: 'ada@example.com', emailVerified: false });
    expect(params, "the squatter's next flow reaches no account it can join").to.deep.equal({ error: 'account_exists' });
  });
});
