import { adminRemoveMfa } from './admin-remove-mfa.js';
import { confirmTotp } from './confirm-totp.js';
import { enrolTotp } from './enrol-totp.js';
import { regenerateRecoveryCodes } from './regenerate-recovery-codes.js';
import { removeTotp } from './remove-totp.js';
import { signInMfa } from './sign-in-mfa.js';
import { verifyMfa } from './verify-mfa.js';

/** The second factor's HTTP operations, in the OpenAPI document's order (its manifest gives them to the server). */
export const SECOND_FACTOR_OPERATIONS = [signInMfa, enrolTotp, confirmTotp, verifyMfa, regenerateRecoveryCodes, removeTotp, adminRemoveMfa] as const;
