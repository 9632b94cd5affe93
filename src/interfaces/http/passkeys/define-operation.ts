import type { PasskeysUseCases } from '../../../application/passkeys/passkeys-use-cases.js';
import { operationsOf } from '../shared/operation.js';

/** Declares one of the passkeys' operations: `run` gets their use cases. */
export const definePasskeysOperation = operationsOf<PasskeysUseCases>();
