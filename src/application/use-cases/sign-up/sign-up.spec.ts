import { SESSIONS, USERS } from '../../../infrastructure/storage/account-tables.js';
import { expect } from 'chai';
import { EmailAlreadyRegistered, InvalidInput } from '../../../domain/domain-error.js';
import { aRequestMetadata, aSignUpCommand } from '../../../../tests/support/builders.js';
import { inMemoryWorld } from '../../../../tests/support/in-memory-world.js';
import { rejection } from '../../../../tests/support/rejection.js';


describe('SignUpHandler', () => {
  it('stores a normalised user with a hashed password and returns the public view and a token', async () => {
    const world = await inMemoryWorld();
    const result = await world.signUp.execute(aSignUpCommand({ name: ' Ada ', email: ' ADA@Example.com ' }));

    expect(result.user).to.deep.equal({ id: 'id-1', name: 'Ada', lastname: 'Lovelace', email: 'ada@example.com', emailverified: false });
    expect(result.accessToken).to.equal('token-1-for-id-1-in-id-4');
    expect(result.refreshToken).to.match(/^rt1\.id-4\.0\./);
    expect(result.expiresIn).to.equal(900);
    const stored = await world.users.findByEmail('ada@example.com');
    expect(stored?.passwordHash).to.equal('fake$v1$analytical engine 1843');
    expect(stored?.createdAt).to.deep.equal(world.clock.now());
  });

  it('commits UserRegistered and SessionStarted with the request metadata, and no secret in them', async () => {
    const world = await inMemoryWorld();
    const result = await world.signUp.execute(aSignUpCommand({ metadata: aRequestMetadata({ clientIp: '198.51.100.1' }) }));

    expect(world.store.events.map((e) => [e.type, e.aggregateId])).to.deep.equal([['UserRegistered', 'id-1'], ['EmailVerificationRequested', 'id-1'], ['SessionStarted', 'id-1']]);
    expect(JSON.stringify(world.store.events)).not.to.include(result.refreshToken);
    const [event] = world.store.events;
    expect(event).to.deep.include({ type: 'UserRegistered', aggregateId: 'id-1', eventId: 'id-2', payload: { email: 'ada@example.com' } });
    expect(event?.metadata.clientIp).to.equal('198.51.100.1');
    expect(JSON.stringify(world.store.events)).not.to.match(/analytical engine|fake\$|token-/);
  });

  it('lists every invalid field at once', async () => {
    const world = await inMemoryWorld();
    const error = await rejection(world.signUp.execute(aSignUpCommand({ name: '', lastname: 'x'.repeat(101), email: 'nope', password: 'short' })));

    expect(error).to.be.instanceOf(InvalidInput);
    expect((error as InvalidInput).issues.map((issue) => issue.field)).to.deep.equal(['name', 'lastname', 'email', 'password']);
    expect(world.tables.rowsOf(USERS).length).to.equal(0);
    expect(world.store.events).to.deep.equal([]);
  });

  it('refuses a password equal to the e-mail local part', async () => {
    const error = await rejection((await inMemoryWorld()).signUp.execute(aSignUpCommand({ email: 'adalovelace@example.com', password: 'ADALOVELACE' })));
    expect((error as InvalidInput).issues).to.deep.equal([{ field: 'password', code: 'SAME_AS_EMAIL', message: 'must not be the same as the email address' }]);
  });

  it('refuses a too common password, in any case, listed with the other invalid fields', async () => {
    const world = await inMemoryWorld();
    const common = await rejection(world.signUp.execute(aSignUpCommand({ password: 'PassWord123' })));
    expect((common as InvalidInput).issues).to.deep.equal([{ field: 'password', code: 'TOO_COMMON', message: 'is too common' }]);

    const both = await rejection(world.signUp.execute(aSignUpCommand({ name: '', password: 'iloveyou2' })));
    expect((both as InvalidInput).issues.map((issue) => `${issue.field}: ${issue.message}`)).to.deep.equal(['name: is required', 'password: is too common']);
    expect(world.tables.rowsOf(USERS).length).to.equal(0);
  });

  it('refuses an e-mail already registered, whatever its case, and keeps the first account untouched', async () => {
    const world = await inMemoryWorld();
    await world.signUp.execute(aSignUpCommand());
    const error = await rejection(world.signUp.execute(aSignUpCommand({ email: 'ADA@example.com', name: 'Other', password: 'another password 1' })));

    expect(error).to.be.instanceOf(EmailAlreadyRegistered);
    expect(world.tables.rowsOf(USERS).length).to.equal(1);
    expect((await world.users.findByEmail('ada@example.com'))?.name.value).to.equal('Ada');
    expect(world.store.events.map((e) => e.type)).to.deep.equal(['UserRegistered', 'EmailVerificationRequested', 'SessionStarted']);
    expect(world.tables.rowsOf(SESSIONS).length).to.equal(1);
  });

  it('lets exactly one of many simultaneous sign-ups of one e-mail win', async () => {
    const world = await inMemoryWorld();
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => world.signUp.execute(aSignUpCommand())));

    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).to.have.length(1);
    const failures = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    expect(failures.every((failure) => failure.reason instanceof EmailAlreadyRegistered)).to.equal(true);
    expect(world.tables.rowsOf(USERS).length).to.equal(1);
    expect(world.store.events.filter((event) => event.type === 'UserRegistered')).to.have.length(1);
  });
});
