import { token } from '../../di-token.js';

/** A new key as its holder gets it, once: its id and the whole key to present (`Authorization: Bearer <key>`). */
export interface NewApiKey {
  readonly id: string;
  readonly key: string;
  /** What the store keeps of it: a keyed hash, never the key. */
  readonly secretHash: string;
}

/** Makes API keys and checks presented ones; the key that hashes them never leaves the adapter. */
export interface ApiKeySecrets {
  newKey(): NewApiKey;
  /** The id a presented key names, or null when it is not shaped like one of ours. Pure. */
  idOf(presented: string): string | null;
  /** Whether `presented` is the key whose hash is `secretHash` (constant time). */
  matches(presented: string, secretHash: string): boolean;
}

export const API_KEY_SECRETS = token<ApiKeySecrets>('ApiKeySecrets');
