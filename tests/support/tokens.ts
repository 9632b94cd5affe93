import { type KeyObject, createHmac, generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { thumbprint } from '../../src/infrastructure/security/signing-key.js';

/** An ES256 key pair for tests, with its PEMs and the kid the service would give it. */
export interface TestKey {
  readonly privatePem: string;
  readonly publicPem: string;
  readonly privateKey: KeyObject;
  readonly kid: string;
}

export const aTestKey = (): TestKey => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return {
    privatePem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    publicPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    privateKey,
    kid: thumbprint(publicKey),
  };
};

export const nowSeconds = (at = Date.now()): number => Math.floor(at / 1000);

/** The claims the service issues, for `sub`, valid now; pass `undefined` to leave a claim out. */
export const claimsFor = (sub: string, overrides: Record<string, unknown> = {}, at = Date.now()): Record<string, unknown> => {
  const claims: Record<string, unknown> = {
    sub,
    iat: nowSeconds(at),
    exp: nowSeconds(at) + 900,
    iss: 'account-service',
    aud: 'account-service',
    jti: 'test-jti',
    ...overrides,
  };
  return Object.fromEntries(Object.entries(claims).filter(([, value]) => value !== undefined));
};

/** A properly signed ES256 token, with any claims and kid. */
export const signToken = (key: TestKey, claims: Record<string, unknown>, kid: string = key.kid): string =>
  jwt.sign(claims, key.privateKey, { algorithm: 'ES256', keyid: kid, noTimestamp: true });

const part = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

export const decodePart = (token: string, index: 0 | 1): Record<string, unknown> =>
  JSON.parse(Buffer.from(token.split('.')[index] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;

/** `alg: none`: no signature at all. */
export const unsignedToken = (claims: Record<string, unknown>, kid: string): string =>
  `${part({ alg: 'none', typ: 'JWT', kid })}.${part(claims)}.`;

/** The classic confusion attack: HS256 with the server's public key PEM as the HMAC secret. */
export const hs256WithPublicKey = (claims: Record<string, unknown>, key: TestKey): string => {
  const input = `${part({ alg: 'HS256', typ: 'JWT', kid: key.kid })}.${part(claims)}`;
  return `${input}.${createHmac('sha256', key.publicPem).update(input).digest('base64url')}`;
};

/** The same header and signature with one claim changed: the signature no longer matches. */
export const withClaimChanged = (token: string, claim: string, value: unknown): string => {
  const [header, , signature] = token.split('.');
  return `${header}.${part({ ...decodePart(token, 1), [claim]: value })}.${signature}`;
};
