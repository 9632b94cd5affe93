import { expect } from 'chai';
import { PasskeyRejected } from '../../../src/application/errors.js';
import { SimpleWebAuthn } from '../../../src/infrastructure/passkeys/simple-webauthn.js';
import { issuesOf } from '../../support/mail-world.js';
import { rejection } from '../../support/rejection.js';
import { SoftAuthenticator } from '../../support/soft-authenticator.js';

const ORIGIN = 'https://app.example.com';
const webauthn = new SimpleWebAuthn({ rpId: 'app.example.com', rpName: 'Example', origins: [ORIGIN], timeoutMs: 60_000 });
const ADA = { id: 'user-1', name: 'ada@example.com', displayName: 'Ada Lovelace' };

async function registered() {
  const authenticator = new SoftAuthenticator(ORIGIN);
  const { options, challenge } = await webauthn.registrationOptions(ADA, []);
  const credential = await webauthn.verifyRegistration(authenticator.create(options), challenge);
  return { authenticator, credential };
}

const reasonOf = async (promise: Promise<unknown>) => {
  const error = await rejection(promise);
  expect(error).to.be.instanceOf(PasskeyRejected);
  return issuesOf(error)[0]?.message;
};

describe('SimpleWebAuthn (@simplewebauthn/server 14): the WebAuthn port', () => {
  it('asks for a discoverable credential with user verification, and verifies what an authenticator created and then signed', async () => {
    const { options } = await webauthn.registrationOptions(ADA, []);
    expect(options).to.deep.include({ rp: { name: 'Example', id: 'app.example.com' }, attestation: 'none' });
    expect(options['authenticatorSelection']).to.deep.include({ residentKey: 'required', userVerification: 'required' });
    const { authenticator, credential } = await registered();
    expect(credential).to.deep.include({ counter: 0, transports: ['internal'] });
    const { options: get, challenge } = await webauthn.authenticationOptions([credential]);
    expect(get['userVerification']).to.equal('required');
    const answer = authenticator.get(get, credential.id);
    expect(webauthn.claimsOf(answer)).to.deep.equal({ challenge, credentialId: credential.id });
    expect(await webauthn.verifyAuthentication(answer, challenge, credential)).to.deep.equal({ counter: 1, backedUp: false });
  });

  it('refuses, saying why: another origin, another RP ID, no user verification, another challenge, the other ceremony', async () => {
    const { authenticator, credential } = await registered();
    const { options, challenge } = await webauthn.authenticationOptions([credential]);
    expect(await reasonOf(webauthn.verifyAuthentication(authenticator.get(options, credential.id, { origin: 'https://evil.example.com' }), challenge, credential))).to.match(/origin/);
    expect(await reasonOf(webauthn.verifyAuthentication(authenticator.get(options, credential.id, { rpId: 'evil.example.com' }), challenge, credential))).to.match(/relying party/);
    expect(await reasonOf(webauthn.verifyAuthentication(authenticator.get(options, credential.id, { userVerified: false }), challenge, credential))).to.match(/user verification/);
    expect(await reasonOf(webauthn.verifyAuthentication(authenticator.get(options, credential.id), 'another-challenge', credential))).to.match(/another challenge/);
    const registration = await webauthn.registrationOptions(ADA, []);
    expect(await reasonOf(webauthn.verifyRegistration(authenticator.get({ ...registration.options, rpId: 'app.example.com' }, credential.id), registration.challenge))).to.be.a('string');
    expect(await reasonOf(webauthn.verifyRegistration('not an object', registration.challenge))).to.match(/toJSON/);
    expect(webauthn.claimsOf({ id: 'x', response: { clientDataJSON: 'not-base64-json' } })).to.equal(null);
  });
});
