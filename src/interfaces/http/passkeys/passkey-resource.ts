import type { PasskeyResource } from '../../../application/passkeys/passkeys-use-cases.js';
import type { JsonSchema } from '../shared/yup-json-schema.js';

/** A passkey as the API shows it (never its key). */
export const passkeySchema: JsonSchema = {
  type: 'object',
  required: ['id', 'name', 'createdat', 'lastusedat', 'transports', 'backedup'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', description: 'The credential id (base64url), as `navigator.credentials` names it' },
    name: { type: 'string', minLength: 1, maxLength: 64 },
    createdat: { type: 'string', format: 'date-time' },
    lastusedat: { type: ['string', 'null'], format: 'date-time', description: 'The last sign-in or step-up with it; null before any' },
    transports: { type: 'array', items: { type: 'string' }, description: 'How the browser reaches it (internal, hybrid, usb, nfc, ble)' },
    backedup: { type: 'boolean', description: 'Synced by its provider to other devices (a multi-device passkey, backed up)' },
  },
};

/** A passkey as the API shows it (dates as ISO 8601). */
export const passkeyResource = (passkey: PasskeyResource) => ({
  id: passkey.id,
  name: passkey.name,
  createdat: passkey.createdAt.toISOString(),
  lastusedat: passkey.lastUsedAt?.toISOString() ?? null,
  transports: passkey.transports,
  backedup: passkey.backedUp,
});

/** Options a browser passes to navigator.credentials (PublicKeyCredential.parse*OptionsFromJSON). */
export const ceremonyOptionsSchema = (description: string): JsonSchema => ({
  type: 'object',
  required: ['challenge'],
  additionalProperties: true,
  properties: { challenge: { type: 'string', description: 'base64url; answered once, within the timeout' } },
  description,
});
