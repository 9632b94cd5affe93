import { expect } from 'chai';
import type { InvalidInput } from '../../../../domain/domain-error.js';
import { EmailNotVerified } from '../../../errors.js';
import { inMemoryWorld } from '../../../../../tests/support/in-memory-world.js';
import { aHolderProof, aSignUpCommand } from '../../../../../tests/support/builders.js';
import { rejection } from '../../../../../tests/support/rejection.js';
import { changeRequested } from '../../../../../tests/support/email-change.js';
import { verifiedSignUp } from '../../../../../tests/support/verified.js';

describe('RequestEmailChangeHandler (requestEmailChange)', () => {
  it('mails a confirmation link to the new address and a notice with a cancel link to the current one; the account stays as it is', async () => {
    const world = await inMemoryWorld();
    const { signedUp, confirm, cancel } = await changeRequested(world);
    expect(confirm).to.match(/^email-change1\./);
    expect(cancel).to.match(/^email-cancel1\./);
    expect((await world.users.findById(signedUp.user.id))?.email.value).to.equal('ada@example.com');
    expect(await world.emailChanges.pendingOf(signedUp.user.id)).to.deep.include({ newEmail: 'countess@lovelace.example' });
    const requested = world.store.capabilityEvents.find((event) => event.type === 'EmailChangeRequested');
    expect(requested?.payload).to.deep.include({ email: 'ada@example.com', newEmail: 'countess@lovelace.example' });
  });

  it('asks what every credential change asks: a verified address and the current password; the new address must be valid and new', async () => {
    const world = await inMemoryWorld();
    const unverified = await world.signUp.execute(aSignUpCommand({ email: 'eve@example.com' }));
    const eve = await world.authenticate.execute({ accessToken: unverified.accessToken });
    expect(await rejection(world.requestEmailChange.execute({ ...aHolderProof(eve), newEmail: 'x@example.com' }))).to.be.instanceOf(EmailNotVerified);
    const { principal } = await verifiedSignUp(world);
    const wrong = await rejection(world.requestEmailChange.execute({ ...aHolderProof(principal, 'not it'), newEmail: 'x@example.com' }));
    expect((wrong as InvalidInput).issues).to.deep.equal([{ field: 'currentpassword', code: 'INCORRECT', message: 'is incorrect' }]);
    const same = await rejection(world.requestEmailChange.execute({ ...aHolderProof(principal), newEmail: ' ADA@example.com' }));
    expect((same as InvalidInput).issues).to.deep.equal([{ field: 'newemail', code: 'UNCHANGED', message: "is already the account's address" }]);
    const malformed = await rejection(world.requestEmailChange.execute({ ...aHolderProof(principal), newEmail: 'not an address' }));
    expect((malformed as InvalidInput).issues.map((issue) => issue.field)).to.deep.equal(['newemail']);
  });

  it('counts requests per account exactly: of 5 at once over a cap of 3, three are recorded', async () => {
    const world = await inMemoryWorld();
    const { principal } = await verifiedSignUp(world);
    await Promise.all(Array.from({ length: 5 }, (_, i) => world.requestEmailChange.execute({ ...aHolderProof(principal), newEmail: `new-${i}@example.com` })));
    expect(world.store.capabilityEvents.filter((event) => event.type === 'EmailChangeRequested')).to.have.length(3);
  });
});
