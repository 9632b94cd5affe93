import { ChangePasswordHandler } from './commands/change-password.handler.js';
import { ConfirmPasswordResetHandler } from './commands/confirm-password-reset.handler.js';
import { DeliverMailHandler, type DeliverySettings } from './commands/deliver-mail.handler.js';
import { ChangeProfileHandler } from './commands/change-profile.handler.js';
import { RefreshHandler } from './commands/refresh.handler.js';
import { RequestPasswordResetHandler } from './commands/request-password-reset.handler.js';
import { RevokeSessionHandler } from './commands/revoke-session.handler.js';
import { SignInHandler } from './commands/sign-in.handler.js';
import { SignOutHandler } from './commands/sign-out.handler.js';
import { SignUpHandler } from './commands/sign-up.handler.js';
import { ResendVerificationHandler, VerifyEmailHandler } from './commands/verify-email.handler.js';
import type { MailSettings } from './policies/mail.js';
import type { SessionSettings } from './policies/sessions.js';
import { SignInThrottle, type SignInThrottleSettings } from './policies/sign-in-throttle.js';
import type { Ports } from './ports/ports.js';
import { AuthenticateHandler } from './queries/authenticate.handler.js';
import { GetAccountActivityHandler } from './queries/get-account-activity.handler.js';
import { GetCurrentUserHandler } from './queries/get-current-user.handler.js';
import { ListSessionsHandler } from './queries/list-sessions.handler.js';

/** Settings the use cases' policies read; the composition takes them from the configuration. */
export interface Policies {
  readonly signInThrottle: SignInThrottleSettings;
  readonly sessions: SessionSettings;
  readonly mail: MailSettings;
  readonly delivery: DeliverySettings;
}

/**
 * THE registry of use cases: every command and query the service offers, built from the ports. `main.ts` and the
 * in-memory test world both call it; the HTTP adapter receives its result and each route module picks what it
 * needs (`Pick<UseCases, 'signUp' | 'signIn'>`). Adding a use case is one line here.
 */
export function buildUseCases(ports: Ports, policies: Policies) {
  const throttle = new SignInThrottle(ports, policies.signInThrottle);
  return {
    signUp: new SignUpHandler(ports, policies.sessions),
    signIn: new SignInHandler(ports, throttle, policies.sessions, policies.mail.requireVerifiedEmail),
    refresh: new RefreshHandler(ports, policies.sessions),
    signOut: new SignOutHandler(ports),
    revokeSession: new RevokeSessionHandler(ports),
    changePassword: new ChangePasswordHandler(ports, throttle),
    requestPasswordReset: new RequestPasswordResetHandler(ports, policies.mail),
    confirmPasswordReset: new ConfirmPasswordResetHandler(ports, policies.mail),
    verifyEmail: new VerifyEmailHandler(ports, policies.mail),
    resendVerification: new ResendVerificationHandler(ports),
    deliverMail: new DeliverMailHandler(ports, policies.mail, policies.delivery),
    changeProfile: new ChangeProfileHandler(ports),
    authenticate: new AuthenticateHandler(ports),
    currentUser: new GetCurrentUserHandler(ports),
    accountActivity: new GetAccountActivityHandler(ports),
    sessions: new ListSessionsHandler(ports),
    /** Ports the edge reads as they are: no rule of the application sits between them and the client. */
    admission: ports.admission,
    publicKeys: ports.publicKeys,
    storeHealth: ports.storeHealth,
  } as const;
}

export type UseCases = ReturnType<typeof buildUseCases>;
