import type { SecondFactorUseCases } from '../../../application/second-factor/second-factor-use-cases.js';
import { operationsOf } from '../shared/operation.js';

/** Declares one of the second factor's operations: `run` gets its use cases. */
export const defineSecondFactorOperation = operationsOf<SecondFactorUseCases>();
