import type { AnyOperation } from '../shared/operation.js';
import { signIn } from './sign-in.js';
import { signUp } from './sign-up.js';

/** THE list of the HTTP operations the service offers: server.ts registers each, the edge and the tests read it. */
export const OPERATIONS: readonly AnyOperation[] = [signUp, signIn];
