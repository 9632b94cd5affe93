import type { EmailChangeUseCases } from '../../../application/email-change/email-change-use-cases.js';
import { operationsOf } from '../shared/operation.js';

/** Declares one of the change of address's operations: `run` gets its use cases. */
export const defineEmailChangeOperation = operationsOf<EmailChangeUseCases>();
