import { ChangeProfileHandler } from './commands/change-profile.handler.js';
import { SignInHandler } from './commands/sign-in.handler.js';
import { SignUpHandler } from './commands/sign-up.handler.js';
import { SignInThrottle, type SignInThrottleSettings } from './policies/sign-in-throttle.js';
import type { Ports } from './ports/ports.js';
import { AuthenticateHandler } from './queries/authenticate.handler.js';
import { GetAccountActivityHandler } from './queries/get-account-activity.handler.js';
import { GetCurrentUserHandler } from './queries/get-current-user.handler.js';

/** Settings the use cases' policies read; the composition takes them from the configuration. */
export interface Policies {
  readonly signInThrottle: SignInThrottleSettings;
}

/**
 * THE registry of use cases: every command and query the service offers, built from the ports. `main.ts` and the
 * in-memory test world both call it; the HTTP adapter receives its result and each route module picks what it
 * needs (`Pick<UseCases, 'signUp' | 'signIn'>`). Adding a use case is one line here.
 */
export function buildUseCases(ports: Ports, policies: Policies) {
  return {
    signUp: new SignUpHandler(ports),
    signIn: new SignInHandler(ports, new SignInThrottle(ports, policies.signInThrottle)),
    changeProfile: new ChangeProfileHandler(ports),
    authenticate: new AuthenticateHandler(ports),
    currentUser: new GetCurrentUserHandler(ports),
    accountActivity: new GetAccountActivityHandler(ports),
    /** Ports the edge reads as they are: no rule of the application sits between them and the client. */
    admission: ports.admission,
    publicKeys: ports.publicKeys,
    storeHealth: ports.storeHealth,
  } as const;
}

export type UseCases = ReturnType<typeof buildUseCases>;
