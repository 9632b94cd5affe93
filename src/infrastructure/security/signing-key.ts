import { type KeyObject, createHash, createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** An ES256 signing key with its id (the RFC 7638 JWK thumbprint of its public half). */
export interface SigningKey {
  readonly kid: string;
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
}

export interface SigningKeySource {
  readonly privateKeyPem: string | undefined;
  readonly privateKeyFile: string | undefined;
  readonly dataDir: string;
  readonly production: boolean;
  /** Nothing is persisted (STORAGE=memory): a generated key lives in memory only, and DATA_DIR is never touched. */
  readonly ephemeral?: boolean;
}

export type SigningKeyOrigin = 'configured' | 'generated' | 'persisted' | 'ephemeral';

export class SigningKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SigningKeyError';
  }
}

export const GENERATED_KEY_FILE = 'jwt-signing-key.pem';

export const thumbprint = (publicKey: KeyObject): string => {
  const jwk = publicKey.export({ format: 'jwk' });
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return createHash('sha256').update(canonical).digest('base64url');
};

/** True for an EC P-256 key, the only kind ES256 signs or verifies with. */
export const isEs256Key = (key: KeyObject): boolean => key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1';

const fromPem = (pem: string, variable: string): SigningKey => {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch {
    throw new SigningKeyError(`${variable} is not a PEM private key`);
  }
  if (!isEs256Key(privateKey)) {
    throw new SigningKeyError(`${variable} must be an EC P-256 private key (ES256)`);
  }
  const publicKey = createPublicKey(privateKey);
  return { kid: thumbprint(publicKey), privateKey, publicKey };
};

/**
 * Loads the signing key from JWT_PRIVATE_KEY or JWT_PRIVATE_KEY_FILE. Without either, production refuses to
 * start; elsewhere a key is generated once and kept in DATA_DIR so tokens stay valid across restarts (in memory
 * only when `ephemeral`, since then nothing else survives a restart either).
 */
export function loadSigningKey(source: SigningKeySource): { key: SigningKey; origin: SigningKeyOrigin } {
  if (source.privateKeyPem) return { key: fromPem(source.privateKeyPem, 'JWT_PRIVATE_KEY'), origin: 'configured' };
  if (source.privateKeyFile) {
    let pem: string;
    try {
      pem = readFileSync(source.privateKeyFile, 'utf8');
    } catch {
      throw new SigningKeyError(`JWT_PRIVATE_KEY_FILE cannot be read: ${source.privateKeyFile}`);
    }
    return { key: fromPem(pem, 'JWT_PRIVATE_KEY_FILE'), origin: 'configured' };
  }
  if (source.production) {
    throw new SigningKeyError('JWT_PRIVATE_KEY or JWT_PRIVATE_KEY_FILE must be set when NODE_ENV=production');
  }
  if (source.ephemeral) {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const publicKey = createPublicKey(privateKey);
    return { key: { kid: thumbprint(publicKey), privateKey, publicKey }, origin: 'ephemeral' };
  }
  const file = join(source.dataDir, GENERATED_KEY_FILE);
  if (existsSync(file)) return { key: fromPem(readFileSync(file, 'utf8'), file), origin: 'persisted' };
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  mkdirSync(source.dataDir, { recursive: true });
  writeFileSync(file, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600, flag: 'wx' });
  return { key: fromPem(readFileSync(file, 'utf8'), file), origin: 'generated' };
}
