import type { SocialSignInUseCases } from '../../../application/social-sign-in/social-sign-in-use-cases.js';
import { operationsOf } from '../shared/operation.js';

/** Declares one of social sign-in's operations: `run` gets its use cases. */
export const defineSocialOperation = operationsOf<SocialSignInUseCases>();
