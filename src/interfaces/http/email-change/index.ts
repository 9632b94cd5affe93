import { cancelEmailChange } from './cancel-email-change.js';
import { confirmEmailChange } from './confirm-email-change.js';
import { requestEmailChange } from './request-email-change.js';
import { revertEmailChange } from './revert-email-change.js';

/** The change of address's HTTP operations, in the OpenAPI document's order (its manifest gives them to the server). */
export const EMAIL_CHANGE_OPERATIONS = [requestEmailChange, confirmEmailChange, cancelEmailChange, revertEmailChange] as const;
