import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ApiKeySecrets, NewApiKey } from '../../application/api-keys/ports/api-key-secrets.port.js';

const KEY = /^ask_([A-Za-z0-9_-]{16})\.[A-Za-z0-9_-]{43}$/;

/**
 * API keys `ask_<id>.<secret>`: a 96-bit id and a 256-bit secret, both random. The store keeps HMAC-SHA-256 of the
 * whole key under a key derived from PERSONAL_DATA_KEY (never rotated), so a copy of the store cannot be used to
 * present a key, nor to test guesses without that key.
 */
export class KeyedApiKeys implements ApiKeySecrets {
  constructor(private readonly key: Buffer) {}

  newKey(): NewApiKey {
    const id = randomBytes(12).toString('base64url');
    const key = `ask_${id}.${randomBytes(32).toString('base64url')}`;
    return { id, key, secretHash: this.hashOf(key) };
  }

  idOf(presented: string): string | null {
    return KEY.exec(presented)?.[1] ?? null;
  }

  matches(presented: string, secretHash: string): boolean {
    const expected = Buffer.from(secretHash, 'base64url');
    const actual = Buffer.from(this.hashOf(presented), 'base64url');
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }

  private hashOf(key: string): string {
    return createHmac('sha256', this.key).update(key, 'utf8').digest('base64url');
  }
}
