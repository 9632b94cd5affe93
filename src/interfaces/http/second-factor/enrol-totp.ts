import { defineSecondFactorOperation } from './define-operation.js';
import { holderProofBody, holderProofOf } from '../shared/holder-proof.js';

export const enrolTotp = defineSecondFactorOperation({
  method: 'POST',
  path: '/auth/mfa/totp',
  operationId: 'enrolTotp',
  summary: 'Start enrolling an authenticator app (TOTP): its secret, otpauth URI and QR code, shown this once',
  description:
    'Adding a way in proves the holder now: a verified address (403 EMAIL_NOT_VERIFIED otherwise), the current password, and a step-up ' +
    'when a factor is enrolled already. The factor is pending until a code from the app confirms it (POST /auth/mfa/totp/confirm); starting again before ' +
    'that replaces the secret. The secret is stored encrypted (AES-256-GCM) and never shown again.',
  tag: 'mfa',
  auth: 'bearer',
  hashes: true,
  body: holderProofBody('The account\'s password, checked like a password change: counted on this session'),
  success: {
    status: 200,
    message: 'Authenticator enrolment started',
    description: 'Scan the QR code (or type the secret) into an authenticator app, then confirm with one of its codes',
    data: {
      type: 'object',
      required: ['secret', 'uri', 'qrcode'],
      additionalProperties: false,
      properties: {
        secret: { type: 'string', pattern: '^[A-Z2-7]+=*$', description: 'The TOTP secret (160 bits, base32), for typing into the app' },
        uri: { type: 'string', pattern: '^otpauth://totp/', description: 'RFC 6238: SHA-1, 6 digits, 30-second period' },
        qrcode: { type: 'string', description: 'The URI as a QR code: an SVG document' },
      },
    },
  },
  errors: ['EMAIL_NOT_VERIFIED', 'STEP_UP_REQUIRED', 'MFA_ALREADY_ENROLLED', 'STORE_UNAVAILABLE'],
  run: async ({ body, principal, meta }, { enrolTotp }) => {
    const { secret, uri, qrCode } = await enrolTotp.execute({ principal, ...holderProofOf(body), metadata: meta });
    return { secret, uri, qrcode: qrCode };
  },
});
