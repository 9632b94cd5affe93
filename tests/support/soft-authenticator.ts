import { type KeyObject, createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';

/**
 * A WebAuthn authenticator in software (ES256, attestation `none`), for HTTP tests that run without a browser: it
 * answers the service's own options exactly as `credential.toJSON()` does in a browser, signed for real, so the
 * service's verification (@simplewebauthn/server) runs unchanged. The browser test drives Chromium's virtual
 * authenticator instead.
 */

type Cbor = number | string | Uint8Array | ReadonlyMap<number | string, Cbor> | { readonly [key: string]: Cbor };

/** The few CBOR major types WebAuthn needs: integers, byte and text strings, maps. */
function cbor(value: Cbor): Buffer {
  const head = (major: number, length: number): Buffer => {
    if (length < 24) return Buffer.from([(major << 5) | length]);
    if (length < 256) return Buffer.from([(major << 5) | 24, length]);
    const out = Buffer.alloc(3);
    out[0] = (major << 5) | 25;
    out.writeUInt16BE(length, 1);
    return out;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  const entries = value instanceof Map ? [...(value as ReadonlyMap<number | string, Cbor>).entries()] : Object.entries(value);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([key, item]) => [cbor(key), cbor(item)])]);
}

const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest();

interface SoftCredential {
  readonly id: Buffer;
  readonly key: KeyObject;
  readonly userHandle: string;
  counter: number;
}

export interface CeremonyChoices {
  /** The page's origin (default: the authenticator's). */
  readonly origin?: string;
  /** Whether the user was verified (UV flag); default true. */
  readonly userVerified?: boolean;
  /** The counter to report instead of the next one (to test a regression). */
  readonly counter?: number;
  /** The RP ID to sign for (default: the options'). */
  readonly rpId?: string;
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export class SoftAuthenticator {
  private readonly credentials = new Map<string, SoftCredential>();

  constructor(private readonly origin: string) {}

  /** `navigator.credentials.create({ publicKey: options })`, answered as JSON. */
  create(options: Readonly<Record<string, unknown>>, choices: CeremonyChoices = {}): Record<string, unknown> {
    const rp = options['rp'] as { id: string };
    const user = options['user'] as { id: string };
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const id = randomBytes(16);
    const credential: SoftCredential = { id, key: privateKey, userHandle: user.id, counter: 0 };
    this.credentials.set(b64url(id), credential);
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = cbor(new Map<number, Cbor>([[1, 2], [3, -7], [-1, 1], [-2, Buffer.from(jwk.x ?? '', 'base64url')], [-3, Buffer.from(jwk.y ?? '', 'base64url')]]));
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const authData = Buffer.concat([this.header(choices.rpId ?? rp.id, FLAG_AT, choices, 0), Buffer.alloc(16), idLength, id, cose]);
    const clientData = this.clientData('webauthn.create', String(options['challenge']), choices);
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key',
      response: { clientDataJSON: b64url(clientData), attestationObject: b64url(cbor({ fmt: 'none', attStmt: {}, authData })), transports: ['internal'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** `navigator.credentials.get({ publicKey: options })` with the credential `id` (the first one made when absent), as JSON. */
  get(options: Readonly<Record<string, unknown>>, id?: string, choices: CeremonyChoices = {}): Record<string, unknown> {
    const credential = id === undefined ? [...this.credentials.values()][0] : this.credentials.get(id);
    if (!credential) throw new Error(`no credential ${id ?? ''}`);
    credential.counter = choices.counter ?? credential.counter + 1;
    const authData = this.header(choices.rpId ?? String(options['rpId']), 0, choices, credential.counter);
    const clientData = this.clientData('webauthn.get', String(options['challenge']), choices);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), credential.key);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      response: { clientDataJSON: b64url(clientData), authenticatorData: b64url(authData), signature: b64url(signature), userHandle: credential.userHandle },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  private header(rpId: string, flags: number, choices: CeremonyChoices, counter: number): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags | FLAG_UP | (choices.userVerified === false ? 0 : FLAG_UV)]), count]);
  }

  private clientData(type: string, challenge: string, choices: CeremonyChoices): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: choices.origin ?? this.origin, crossOrigin: false }));
  }
}
