import { createCipheriv, createDecipheriv, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { derivedKey } from './hmac-refresh-tokens.js';

/** The key generated outside production when PERSONAL_DATA_KEY is unset, kept beside the store. */
export const GENERATED_PERSONAL_DATA_KEY_FILE = 'personal-data.key';

/**
 * The secret every personal-data key is derived from: PERSONAL_DATA_KEY when set. Never derived from a key an operator
 * rotates (the signing key, REFRESH_TOKEN_SECRET): a new one would leave every sealed field unreadable. Without it, in
 * production, the service refuses to start; elsewhere a key is generated once and kept in DATA_DIR (by whichever
 * process gets there first: written aside, then hard-linked into place), or in memory only with STORAGE=memory.
 */
export function personalDataSecret(options: {
  readonly configured: string | undefined;
  readonly configuredFile?: string | undefined;
  readonly dataDir: string;
  readonly production: boolean;
  readonly ephemeral: boolean;
}): Buffer {
  if (options.configured !== undefined) return Buffer.from(options.configured, 'utf8');
  if (options.configuredFile !== undefined) return fromFile(options.configuredFile);
  if (options.production) {
    throw new Error('PERSONAL_DATA_KEY (or PERSONAL_DATA_KEY_FILE) is required when NODE_ENV=production: the key (32 characters or more) personal data is sealed under at rest; keep it with the signing key, outside DATA_DIR, and never change it');
  }
  if (options.ephemeral) return randomBytes(KEY_BYTES);
  const file = join(options.dataDir, GENERATED_PERSONAL_DATA_KEY_FILE);
  const read = () => {
    try {
      return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    } catch {
      return null;
    }
  };
  const found = read() ?? publish(options.dataDir, file) ?? read();
  if (found?.length !== KEY_BYTES) throw new Error(`DATA_DIR: ${file} does not hold a personal-data key (${KEY_BYTES} bytes, base64)`);
  return found;
}

/** PERSONAL_DATA_KEY_FILE's text, trimmed, held to the variable's rule (32 characters or more). */
function fromFile(file: string): Buffer {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    throw new Error(`PERSONAL_DATA_KEY_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
  if (text.length < 32) throw new Error(`PERSONAL_DATA_KEY_FILE: ${file} must hold at least 32 characters`);
  return Buffer.from(text, 'utf8');
}

/** Writes a new key as `file` unless one is there already (link never replaces); the key, or null when another process won. */
function publish(dir: string, file: string): Buffer | null {
  mkdirSync(dir, { recursive: true });
  const key = randomBytes(KEY_BYTES);
  const temporary = join(dir, `.${GENERATED_PERSONAL_DATA_KEY_FILE}.${process.pid}.${randomUUID()}.tmp`);
  const fd = openSync(temporary, 'wx', 0o600);
  try {
    writeSync(fd, `${key.toString('base64')}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temporary, file);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return null;
    throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
}

const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

const encrypt = (key: Buffer, associated: string, plain: Buffer): string => {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(associated, 'utf8'));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64');
};

/** The plain bytes of `sealed`, or null when it does not open under `key` with `associated` (another key, altered). */
const decrypt = (key: Buffer, associated: string, sealed: string): Buffer | null => {
  const bytes = Buffer.from(sealed, 'base64');
  if (bytes.length < IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES)).setAAD(Buffer.from(associated, 'utf8'));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]);
  } catch {
    return null;
  }
};

/**
 * The keys personal data is kept under at rest (storage/sealing-store.ts), derived (HKDF) from one secret
 * (`personalDataSecret`).
 * - Each account has a random 256-bit data key, stored wrapped (AES-256-GCM, the account id as associated data) under
 *   the key-encryption key; destroying the wrapped key makes everything sealed under it unreadable (crypto-shredding).
 * - Records of no account (an event about an unknown address) are sealed under the service's own data key.
 * - A value looked up by equality (a claimed address, an attempt counter's key) is stored as its blind index, an
 *   HMAC-SHA-256, so the store never holds the value itself.
 * Sealed fields are serialised with v8's structured clone (Dates stay Dates), then AES-256-GCM with a random IV and the
 * table and account as associated data, so a sealed value moved to another record does not open.
 */
export class PersonalDataKeys {
  private readonly kek: Buffer;
  private readonly blindKey: Buffer;
  /** The data key of records that belong to no account. */
  readonly serviceKey: Buffer;

  constructor(secret: Buffer) {
    this.kek = derivedKey(secret, 'personal-data-kek-v1');
    this.blindKey = derivedKey(secret, 'personal-data-blind-v1');
    this.serviceKey = derivedKey(secret, 'personal-data-service-v1');
    this.fingerprint = createHmac('sha256', derivedKey(secret, 'personal-data-check-v1')).update('personal-data-key-check').digest('base64url');
  }

  /** A one-way fingerprint of the key (an HMAC under a key derived for it alone): the same key gives the same one. */
  readonly fingerprint: string;

  /** A fresh data key for `accountId` and its wrapped form (what the store keeps). */
  newDataKey(accountId: string): { readonly key: Buffer; readonly wrapped: string } {
    const key = randomBytes(KEY_BYTES);
    return { key, wrapped: encrypt(this.kek, accountId, key) };
  }

  /** The data key `wrapped` holds for `accountId`; null when it does not unwrap (another key-encryption key). */
  unwrap(accountId: string, wrapped: string): Buffer | null {
    const key = decrypt(this.kek, accountId, wrapped);
    return key?.length === KEY_BYTES ? key : null;
  }

  seal(key: Buffer, associated: string, fields: Readonly<Record<string, unknown>>): string {
    return encrypt(key, associated, serialize(fields));
  }

  /** The fields `sealed` holds; null when it does not open under `key` and `associated`. */
  open(key: Buffer, associated: string, sealed: string): Record<string, unknown> | null {
    const plain = decrypt(key, associated, sealed);
    return plain === null ? null : (deserialize(plain) as Record<string, unknown>);
  }

  /** The blind index of `value`: the same for the same value, and nothing of the value without the key. */
  blind(value: string): string {
    return createHmac('sha256', this.blindKey).update(value, 'utf8').digest('base64url');
  }
}
