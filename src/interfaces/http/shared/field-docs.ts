import { EMAIL_MAX_LENGTH } from '../../../domain/email.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../domain/password.js';
import { NAME_MAX_LENGTH } from '../../../domain/person-name.js';
import type { JsonSchema } from './yup-json-schema.js';

/** How the documented input fields read in the OpenAPI document (the domain's value objects enforce them). */
export const personName = (label: string): JsonSchema => ({ minLength: 1, maxLength: NAME_MAX_LENGTH, description: `${label}: trimmed, no control characters` });

export const emailField: JsonSchema = {
  format: 'idn-email',
  maxLength: EMAIL_MAX_LENGTH,
  description:
    'Trimmed, Unicode NFC and lower-cased before validation, uniqueness and sign-in; internationalised addresses (RFC 6531) are accepted; control, invisible (format), separator, unassigned and private-use characters are refused',
};

export const newPassword = (description: string): JsonSchema => ({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH, description });

export const presentedPassword = (description?: string): JsonSchema => ({
  minLength: 1,
  maxLength: PASSWORD_MAX_LENGTH,
  ...(description === undefined ? {} : { description }),
});

export const mailedToken: JsonSchema = { minLength: 1, maxLength: 512, description: 'The token from the link of the mail (after #token=)' };
