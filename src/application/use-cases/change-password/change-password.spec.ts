import { expect } from 'chai';
import { InvalidRefreshToken, InvalidToken } from '../../errors.js';
import { InvalidCredentials, InvalidInput } from '../../../domain/domain-error.js';
import type { Principal } from '../../shared/principal.js';
import { aRequestMetadata, aSignInCommand, aSignUpCommand, completedSignIn } from '../../../../tests/support/builders.js';
import { inMemoryWorld } from '../../../../tests/support/in-memory-world.js';
import { rejection } from '../../../../tests/support/rejection.js';
import { UuidShapedIds, WriteCountingSessions } from '../../../../tests/support/fakes.js';
import type { SessionRepository } from '../../ports/session-repository.port.js';

const OLD = 'analytical engine 1843';
const NEW = 'difference engine 1822';
const metadata = aRequestMetadata();

/** Ada on a laptop (sign-up, the caller) and a phone (sign-in). */
async function adaOnTwoDevices() {
  const world = await inMemoryWorld({ replace: { ids: new UuidShapedIds() } });
  const laptop = await world.signUp.execute(aSignUpCommand({ password: OLD }));
  const phone = await completedSignIn(world.signIn.execute(aSignInCommand({ password: OLD })));
  const principal = await world.authenticate.execute({ accessToken: laptop.accessToken });
  const change = (currentPassword: unknown, newPassword: unknown, who: Principal = principal) =>
    world.changePassword.execute({ principal: who, currentPassword, newPassword, metadata });
  const types = () => world.store.events.map((event) => event.type);
  return { world, laptop, phone, principal, change, types };
}

describe('ChangePasswordHandler (changePassword)', () => {
  it('changes the password: the new one signs in, the old one no longer does, PasswordChanged is recorded', async () => {
    const { world, laptop, change, types } = await adaOnTwoDevices();
    const account = await change(OLD, NEW);

    expect(account).to.deep.equal(laptop.user);
    expect(types().filter((type) => type === 'PasswordChanged')).to.have.length(1);
    expect(await rejection(completedSignIn(world.signIn.execute(aSignInCommand({ password: OLD }))))).to.be.instanceOf(InvalidCredentials);
    expect((await completedSignIn(world.signIn.execute(aSignInCommand({ password: NEW })))).user.id).to.equal(laptop.user.id);
  });

  it("ends every other session of the account with SessionsEnded(password_changed) and keeps the caller's", async () => {
    const { world, laptop, phone, principal, change } = await adaOnTwoDevices();
    await change(OLD, NEW);

    expect(await world.authenticate.execute({ accessToken: laptop.accessToken })).to.deep.equal(principal);
    expect(await rejection(world.authenticate.execute({ accessToken: phone.accessToken }))).to.be.instanceOf(InvalidToken);
    expect(await rejection(world.refreshSession.execute({ refreshToken: phone.refreshToken, metadata }))).to.be.instanceOf(InvalidRefreshToken);
    expect((await world.refreshSession.execute({ refreshToken: laptop.refreshToken, metadata })).user.id).to.equal(laptop.user.id);
    const ended = world.store.events.flatMap((event) => (event.type === 'SessionsEnded' ? [event.payload] : []));
    expect(ended).to.deep.equal([{ email: 'ada@example.com', reason: 'password_changed', keptSessionId: principal.sessionId }]);
  });

  it('refuses a wrong current password with InvalidInput on currentpassword, records SignInFailed, and changes nothing', async () => {
    const { world, laptop, phone, change, types } = await adaOnTwoDevices();
    const before = types();
    const error = await rejection(change('not the password', NEW));

    expect(error).to.be.instanceOf(InvalidInput);
    expect((error as InvalidInput).issues).to.deep.equal([{ field: 'currentpassword', code: 'INCORRECT', message: 'is incorrect' }]);
    expect(types()).to.deep.equal([...before, 'SignInFailed']);
    expect(world.store.events.at(-1)?.payload).to.deep.equal({ email: 'ada@example.com', reason: 'wrong_current_password' });
    expect((await world.authenticate.execute({ accessToken: phone.accessToken })).userId).to.equal(laptop.user.id);
    expect((await completedSignIn(world.signIn.execute(aSignInCommand({ password: OLD })))).user.email).to.equal('ada@example.com');
  });

  it('refuses a too-common or too-short new password with InvalidInput on newpassword, before checking the current one', async () => {
    const { world, change, types } = await adaOnTwoDevices();
    const before = types();
    const common = await rejection(change('not the password', 'Password123'));
    const short = await rejection(change(OLD, 'short'));

    expect(common).to.be.instanceOf(InvalidInput);
    expect((common as InvalidInput).issues).to.deep.equal([{ field: 'newpassword', code: 'TOO_COMMON', message: 'is too common' }]);
    expect((short as InvalidInput).issues).to.deep.equal([{ field: 'newpassword', code: 'TOO_SHORT', message: 'must be at least 8 characters' }]);
    expect(types()).to.deep.equal(before);
    expect(world.hasher.verifications).to.equal(1);
  });

  it('answers InvalidToken for a subject that does not exist', async () => {
    const { change } = await adaOnTwoDevices();
    expect(await rejection(change(OLD, NEW, { userId: 'no-such-user', sessionId: 'no-such-session', amr: ['pwd'], authTime: null, account: { id: 'no-such-user', name: 'Ada', lastname: 'Lovelace', email: 'ada@example.com', emailverified: false } }))).to.be.instanceOf(InvalidToken);
  });

  it("counts wrong current passwords per session, apart from sign-in: the owner's sign-in is never throttled by them", async () => {
    const { world, change } = await adaOnTwoDevices();
    for (let i = 0; i < 5; i++) expect(await rejection(change('not the password', NEW))).to.be.instanceOf(InvalidInput);

    for (let i = 0; i < 4; i++) expect(await rejection(completedSignIn(world.signIn.execute(aSignInCommand({ password: 'wrong' }))))).to.be.instanceOf(InvalidCredentials);
    expect((await completedSignIn(world.signIn.execute(aSignInCommand({ password: OLD })))).user.email).to.equal('ada@example.com');
  });

  it('ends the session after PASSWORD_CHANGE_MAX_FAILURES wrong current passwords: its token is refused, the others live on', async () => {
    const { world, laptop, phone, principal, change } = await adaOnTwoDevices();
    for (let i = 0; i < 4; i++) await rejection(change('not the password', NEW));
    expect(await world.authenticate.execute({ accessToken: laptop.accessToken })).to.deep.equal(principal);

    const fifth = await rejection(change('not the password', NEW));
    expect((fifth as InvalidInput).issues).to.deep.equal([{ field: 'currentpassword', code: 'INCORRECT', message: 'is incorrect' }]);
    expect(await rejection(world.authenticate.execute({ accessToken: laptop.accessToken }))).to.be.instanceOf(InvalidToken);
    expect((await world.authenticate.execute({ accessToken: phone.accessToken })).userId).to.equal(laptop.user.id);
    const revoked = world.store.events.flatMap((event) => (event.type === 'SessionRevoked' ? [event.payload] : []));
    expect(revoked).to.deep.equal([{ email: 'ada@example.com', sessionId: principal.sessionId, reason: 'too_many_password_failures' }]);
    expect(world.store.events.filter((event) => event.type === 'SignInFailed')).to.have.length(5);
    expect((await completedSignIn(world.signIn.execute(aSignInCommand({ password: OLD })))).user.email).to.equal('ada@example.com');
  });

  it('ends 40 other sessions in the one write of the account that stores the new password, writing none of the 40', async () => {
    let counted = new WriteCountingSessions({} as SessionRepository);
    const world = await inMemoryWorld({ wrap: (ports) => ({ sessions: (counted = new WriteCountingSessions(ports.sessions)) })  });
    const here = await world.signUp.execute(aSignUpCommand({ password: OLD }));
    for (let i = 0; i < 40; i++) await completedSignIn(world.signIn.execute(aSignInCommand({ password: OLD })));
    const principal = await world.authenticate.execute({ accessToken: here.accessToken });

    counted.writes = 0;
    const eventsBefore = world.store.events.length;
    await world.changePassword.execute({ principal, currentPassword: OLD, newPassword: NEW, metadata });

    expect(counted.writes).to.equal(0);
    expect(world.store.events.slice(eventsBefore).map((event) => event.type)).to.deep.equal(['PasswordChanged', 'SessionsEnded']);
    expect((await world.sessionViews.live(here.user.id, world.ports.clock.now())).map((session) => session.id)).to.deep.equal([principal.sessionId]);
  });
});
