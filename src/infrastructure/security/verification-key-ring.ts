import { type KeyObject, createPublicKey } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PublicJwk, PublicKeySet } from '../../application/ports/public-key-set.port.js';
import { type SigningKey, SigningKeyError, isEs256Key, thumbprint } from './signing-key.js';

export interface VerificationKey {
  readonly kid: string;
  readonly publicKey: KeyObject;
}

/** Where the previous (or upcoming) public keys are configured: a directory of `*.pem` files and/or single files. */
export interface PreviousKeySource {
  readonly previousPublicKeysDir: string | undefined;
  readonly previousPublicKeyFiles: readonly string[];
}

const pemFilesIn = (dir: string): string[] => {
  try {
    return readdirSync(dir).filter((name) => name.endsWith('.pem')).sort().map((name) => join(dir, name));
  } catch {
    throw new SigningKeyError(`JWT_PREVIOUS_PUBLIC_KEYS_DIR cannot be read: ${dir}`);
  }
};

const publicKeyFrom = (file: string): VerificationKey => {
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch {
    throw new SigningKeyError(`previous public key file cannot be read: ${file}`);
  }
  if (pem.includes('PRIVATE KEY')) throw new SigningKeyError(`${file} holds a private key: keep only public keys there`);
  let publicKey: KeyObject;
  try {
    publicKey = createPublicKey(pem);
  } catch {
    throw new SigningKeyError(`${file} is not a PEM public key`);
  }
  if (!isEs256Key(publicKey)) {
    throw new SigningKeyError(`${file} must be an EC P-256 public key (ES256)`);
  }
  return { kid: thumbprint(publicKey), publicKey };
};

/** Loads the configured previous public keys. Throws SigningKeyError naming the file at fault. */
export const loadPreviousPublicKeys = (source: PreviousKeySource): VerificationKey[] => {
  const dirFiles = source.previousPublicKeysDir ? pemFilesIn(source.previousPublicKeysDir) : [];
  return [...dirFiles, ...source.previousPublicKeyFiles].map(publicKeyFrom);
};

/** The keys tokens are accepted with, by `kid`: the current signing key and any previous ones. */
export class VerificationKeyRing implements PublicKeySet {
  private readonly byKid = new Map<string, KeyObject>();

  constructor(current: SigningKey, previous: readonly VerificationKey[] = []) {
    for (const key of [{ kid: current.kid, publicKey: current.publicKey }, ...previous]) {
      if (!this.byKid.has(key.kid)) this.byKid.set(key.kid, key.publicKey);
    }
  }

  /** Returns the public key with this id, or null when the ring holds none. */
  find(kid: string): KeyObject | null {
    return this.byKid.get(kid) ?? null;
  }

  publicKeys(): readonly PublicJwk[] {
    return [...this.byKid].map(([kid, publicKey]) => {
      const { x, y } = publicKey.export({ format: 'jwk' });
      return { kty: 'EC', crv: 'P-256', x: x ?? '', y: y ?? '', kid, alg: 'ES256', use: 'sig' };
    });
  }
}
