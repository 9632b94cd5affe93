import { expect } from 'chai';
import { InvalidCredentials, type InvalidInput } from '../../../domain/domain-error.js';
import { InvalidToken, PasskeyRejected, RecentSignInRequired, StepUpRequired } from '../../errors.js';
import { inMemoryWorld } from '../../../../tests/support/in-memory-world.js';
import { aHolderProof, aRequestMetadata, aSignInCommand, aSignUpCommand, completedSignIn } from '../../../../tests/support/builders.js';
import { rejection } from '../../../../tests/support/rejection.js';
import { reauthenticated, socialSignIn, throughProvider } from '../../../../tests/support/social.js';
import { withSecondFactor } from '../../../../tests/support/totp.js';
import { verifiedSignUp } from '../../../../tests/support/verified.js';

describe('DeleteAccountHandler (deleteAccount)', () => {
  it('erases the account whole: sessions end, its ways in go, the address is free, and the log keeps one pseudonymous event', async () => {
    const world = await inMemoryWorld();
    const { signedUp, principal } = await verifiedSignUp(world);
    await throughProvider(world, { subject: 'ada-corp', email: 'ada@corp.example' }, { link: principal });
    await world.deleteAccount.execute(aHolderProof(principal));
    const left = () => world.store.events.filter((event) => event.aggregateId === signedUp.user.id).map((event) => [event.type, event.payload, event.metadata.clientIp, event.metadata.userAgent]);
    expect(left()).to.deep.equal([['AccountDeleted', {}, null, null], ['AccountDeletionNoticed', { email: 'ada@example.com', name: 'Ada' }, null, null]]);
    await world.deliverMail.execute();
    expect(world.mail.delivered.filter((mail) => mail.subject === 'Your account was deleted').map((mail) => mail.to)).to.deep.equal(['ada@example.com']);
    expect(left(), 'the notice leaves the log once sent').to.deep.equal([['AccountDeleted', {}, null, null]]);
    expect(JSON.stringify(world.store.events), 'no event names the address').to.not.include('ada@example.com');
    expect(await rejection(world.authenticate.execute({ accessToken: signedUp.accessToken }))).to.be.instanceOf(InvalidToken);
    expect(await rejection(world.signIn.execute(aSignInCommand()))).to.be.instanceOf(InvalidCredentials);
    expect(await world.identities.listByUser(signedUp.user.id)).to.deep.equal([]);
    const again = await world.signUp.execute(aSignUpCommand());
    expect(again.user.id, 'a new account on the freed address').to.not.equal(signedUp.user.id);
  });

  it('asks for the password now (counted), the step-up of an account with a factor, and a recent sign-in of one without a password', async () => {
    const world = await inMemoryWorld();
    const unverified = await world.signUp.execute(aSignUpCommand({ email: 'eve@example.com' }));
    const eve = await world.authenticate.execute({ accessToken: unverified.accessToken });
    const wrong = await rejection(world.deleteAccount.execute(aHolderProof(eve, 'not it')));
    expect((wrong as InvalidInput).issues).to.deep.equal([{ field: 'currentpassword', code: 'INCORRECT', message: 'is incorrect' }]);
    await world.deleteAccount.execute(aHolderProof(eve));
    expect(await world.users.findByEmail('eve@example.com'), 'an unverified account may delete itself too').to.equal(null);
    await world.deliverMail.execute();
    expect(world.mail.delivered.filter((mail) => mail.subject === 'Your account was deleted'), 'no notice to an address nobody proved').to.deep.equal([]);

    const factor = await withSecondFactor();
    expect(await rejection(factor.world.deleteAccount.execute(aHolderProof(factor.passwordOnly)))).to.be.instanceOf(StepUpRequired);

    const social = await inMemoryWorld();
    const signedIn = await completedSignIn(socialSignIn(social, { subject: 'grace', email: 'grace@example.com' }));
    const grace = await social.authenticate.execute({ accessToken: signedIn.accessToken });
    expect(await rejection(social.deleteAccount.execute(aHolderProof(grace, ''))), 'a fresh token alone').to.be.instanceOf(RecentSignInRequired);
    const proof = await reauthenticated(social, grace, { subject: 'grace', email: 'grace@example.com' }, 'delete-account');
    await social.deleteAccount.execute({ ...aHolderProof(grace, ''), ...proof });
    expect(await social.users.findById(grace.userId)).to.equal(null);
  });

  it('takes a passkey answered for this request as the proof of an account without a password, once', async () => {
    const world = await inMemoryWorld();
    const metadata = aRequestMetadata();
    const signedIn = await completedSignIn(socialSignIn(world, { subject: 'lin', email: 'lin@example.com' }));
    const lin = await world.authenticate.execute({ accessToken: signedIn.accessToken });
    const proof = await reauthenticated(world, lin, { subject: 'lin', email: 'lin@example.com' }, 'add-passkey');
    const options = await world.passkeyRegistrationOptions.execute({ principal: lin, currentPassword: undefined, ...proof, metadata });
    await world.addPasskey.execute({ principal: lin, response: { id: 'lin-key', challenge: String(options['challenge']) }, metadata });
    const answer = { id: 'lin-key', challenge: String((await world.passkeyAuthenticationOptions.execute({ principal: lin }))['challenge']) };
    await world.requestEmailChange.execute({ principal: lin, currentPassword: undefined, passkey: answer, newEmail: 'lin@elsewhere.example', metadata });
    expect(await rejection(world.deleteAccount.execute({ principal: lin, currentPassword: undefined, passkey: answer, metadata })), 'its challenge is spent').to.be.instanceOf(PasskeyRejected);
    const fresh = { id: 'lin-key', challenge: String((await world.passkeyAuthenticationOptions.execute({ principal: lin }))['challenge']) };
    await world.deleteAccount.execute({ principal: lin, currentPassword: undefined, passkey: fresh, metadata });
    expect(await world.users.findById(lin.userId)).to.equal(null);
  });
});

