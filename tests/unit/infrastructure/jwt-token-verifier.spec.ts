import jwt from 'jsonwebtoken';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { expect } from 'chai';
import { InvalidToken } from '../../../src/application/errors.js';
import { JwtTokenIssuer } from '../../../src/infrastructure/security/jwt-token-issuer.js';
import { JwtTokenVerifier } from '../../../src/infrastructure/security/jwt-token-verifier.js';
import type { SigningKey } from '../../../src/infrastructure/security/signing-key.js';
import { VerificationKeyRing } from '../../../src/infrastructure/security/verification-key-ring.js';
import { ManualClock, SequentialIds } from '../../support/fakes.js';
import { type TestKey, aTestKey, claimsFor, hs256WithPublicKey, signToken, unsignedToken, withClaimChanged } from '../../support/tokens.js';
import { rejection } from '../../support/rejection.js';

const SETTINGS = { issuer: 'account-service', audience: 'account-service', ttlSeconds: 900 };

const signingKeyOf = (key: TestKey): SigningKey => {
  const privateKey = createPrivateKey(key.privatePem);
  return { kid: key.kid, privateKey, publicKey: createPublicKey(privateKey) };
};


describe('JwtTokenVerifier', () => {
  const current = aTestKey();
  const previous = aTestKey();
  const stranger = aTestKey();
  const clock = new ManualClock();
  const at = clock.now().getTime();
  const ring = new VerificationKeyRing(signingKeyOf(current), [{ kid: previous.kid, publicKey: createPublicKey(previous.publicPem) }]);
  const verifier = new JwtTokenVerifier(ring, SETTINGS, clock);
  const issuer = new JwtTokenIssuer(signingKeyOf(current), SETTINGS, clock, new SequentialIds('jti'));

  it('accepts what the issuer issues, and a token by a previous key', async () => {
    const authTime = new Date(at - 60_000);
    const issued = await verifier.verify(await issuer.issue({ userId: 'user-1', sessionId: 'session-1', amr: ['pwd', 'otp'], authTime }));
    expect(issued).to.deep.equal({ userId: 'user-1', sessionId: 'session-1', tokenId: 'jti-1', expiresAt: new Date(at + 900_000), issuedAt: new Date(at), amr: ['pwd', 'otp'], authTime });
    const old = await verifier.verify(signToken(previous, claimsFor('user-2', {}, at)));
    expect(old).to.deep.include({ userId: 'user-2', sessionId: null, amr: [], authTime: null });
  });

  it('issues what jsonwebtoken itself would sign: the same header and claims, and a signature its verify accepts with the public key only', async () => {
    const key = signingKeyOf(current);
    const subject = { userId: 'user-3', sessionId: 'session-3', amr: ['webauthn'], authTime: new Date(at - 1000) };
    const issued = await new JwtTokenIssuer(key, SETTINGS, clock, new SequentialIds('same')).issue(subject);
    const iat = Math.floor(at / 1000);
    const claims = { sub: 'user-3', sid: 'session-3', amr: ['webauthn'], auth_time: Math.floor((at - 1000) / 1000), iat, exp: iat + 900, iss: 'account-service', aud: 'account-service', jti: 'same-1' };
    const byLibrary = jwt.sign(claims, key.privateKey, { algorithm: 'ES256', keyid: current.kid });
    expect(issued.split('.').slice(0, 2)).to.deep.equal(byLibrary.split('.').slice(0, 2));
    expect(jwt.verify(issued, key.publicKey, { algorithms: ['ES256'], clockTimestamp: iat })).to.deep.equal(claims);
    const [head, body, signature] = issued.split('.');
    expect(Buffer.from(signature ?? '', 'base64url')).to.have.length(64);
    expect(() => jwt.verify(`${head}.${body}.${Buffer.alloc(64).toString('base64url')}`, key.publicKey, { algorithms: ['ES256'], clockTimestamp: iat })).to.throw(/invalid signature/);
  });

  it('checks the signature of a token once: later verifications of it are remembered, still refused from exp on', async () => {
    const local = new ManualClock(new Date(at));
    const token = signToken(current, claimsFor('user-9', {}, at));
    const remembering = new JwtTokenVerifier(ring, SETTINGS, local);
    const original = jwt.verify;
    let checks = 0;
    jwt.verify = ((...args: Parameters<typeof jwt.verify>) => ((checks += 1), original(...args))) as typeof jwt.verify;
    try {
      for (let i = 0; i < 3; i++) expect((await remembering.verify(token)).userId).to.equal('user-9');
      expect(checks).to.equal(1);
      local.advance(900_000);
      expect(await rejection(remembering.verify(token))).to.be.instanceOf(InvalidToken);
    } finally {
      jwt.verify = original;
    }
  });

  it('accepts until the second before exp and refuses from exp on, by the clock it is given', async () => {
    const local = new ManualClock(new Date(at));
    const token = signToken(current, claimsFor('user-1', {}, at));
    const timed = new JwtTokenVerifier(ring, SETTINGS, local);
    local.advance(899_000);
    expect((await timed.verify(token)).userId).to.equal('user-1');
    local.advance(1_000);
    expect(await rejection(timed.verify(token))).to.be.instanceOf(InvalidToken);
  });

  const refused: ReadonlyArray<readonly [string, () => string]> = [
    ['an unknown key', () => signToken(stranger, claimsFor('user-1', {}, at))],
    ['another key claiming the current kid', () => signToken(stranger, claimsFor('user-1', {}, at), current.kid)],
    ['no kid', () => signToken(current, claimsFor('user-1', {}, at), '')],
    ['alg none', () => unsignedToken(claimsFor('user-1', {}, at), current.kid)],
    ['HS256 keyed with the public key', () => hs256WithPublicKey(claimsFor('user-1', {}, at), current)],
    ['a changed claim', () => withClaimChanged(signToken(current, claimsFor('user-1', {}, at)), 'sub', 'user-2')],
    ['a wrong issuer', () => signToken(current, claimsFor('user-1', { iss: 'someone-else' }, at))],
    ['a wrong audience', () => signToken(current, claimsFor('user-1', { aud: 'another-service' }, at))],
    ['nbf in the future', () => signToken(current, claimsFor('user-1', { nbf: Math.floor(at / 1000) + 60 }, at))],
    ['an expired token', () => signToken(current, claimsFor('user-1', { exp: Math.floor(at / 1000) - 1 }, at))],
    ['no exp', () => signToken(current, claimsFor('user-1', { exp: undefined }, at))],
    ['no sub', () => signToken(current, claimsFor('', {}, at))],
    ['no jti', () => signToken(current, claimsFor('user-1', { jti: undefined }, at))],
    ['garbage', () => 'not.a.token'],
    ['a bad JSON header', () => `${Buffer.from('{"alg":').toString('base64url')}.e30.AA`],
    ['an oversized token', () => `${signToken(current, claimsFor('user-1', {}, at))}${'A'.repeat(5000)}`],
  ];
  for (const [label, make] of refused) {
    it(`refuses ${label} with InvalidToken`, async () => {
      const error = await rejection(verifier.verify(make()));
      expect(error).to.be.instanceOf(InvalidToken);
      expect((error as InvalidToken).code).to.equal('INVALID_TOKEN');
    });
  }
});
