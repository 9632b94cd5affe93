import { CancelSignUpHandler } from './use-cases/cancel-sign-up/cancel-sign-up.handler.js';
import { ChangePasswordHandler } from './use-cases/change-password/change-password.handler.js';
import { ConfirmPasswordResetHandler } from './use-cases/confirm-password-reset/confirm-password-reset.handler.js';
import { ExportAccountHandler } from './use-cases/export-account/export-account.handler.js';
import { DeliverMailHandler, type DeliverySettings } from './use-cases/deliver-mail/deliver-mail.handler.js';
import { ChangeProfileHandler } from './use-cases/change-profile/change-profile.handler.js';
import { RefreshHandler } from './use-cases/refresh-session/refresh-session.handler.js';
import { RequestPasswordResetHandler } from './use-cases/request-password-reset/request-password-reset.handler.js';
import { RevokeSessionHandler } from './use-cases/revoke-session/revoke-session.handler.js';
import { SignInHandler } from './use-cases/sign-in/sign-in.handler.js';
import { SignOutHandler } from './use-cases/sign-out/sign-out.handler.js';
import { SignUpHandler } from './use-cases/sign-up/sign-up.handler.js';
import { SweepUnverifiedAccountsHandler } from './use-cases/sweep-unverified-accounts/sweep-unverified-accounts.handler.js';
import { ResendVerificationHandler } from './use-cases/resend-verification/resend-verification.handler.js';
import { VerifyEmailHandler } from './use-cases/verify-email/verify-email.handler.js';
import type { MailSettings } from './policies/mail.js';
import type { MfaSettings } from './policies/second-factor.js';
import type { SessionSettings } from './policies/sessions.js';
import { SignInThrottle, type SignInThrottleSettings } from './policies/sign-in-throttle.js';
import type { Ports } from './ports/ports.js';
import { AuthenticateHandler } from './use-cases/authenticate/authenticate.handler.js';
import { GetAccountActivityHandler } from './use-cases/get-account-activity/get-account-activity.handler.js';
import { GetCurrentUserHandler } from './use-cases/get-current-user/get-current-user.handler.js';
import { ListSessionsHandler } from './use-cases/list-sessions/list-sessions.handler.js';
import { ListCredentialsHandler } from './use-cases/list-credentials/list-credentials.handler.js';
import { IntrospectTokenHandler } from './use-cases/introspect-token/introspect-token.handler.js';
import { AdminListUsersHandler } from './use-cases/admin-list-users/admin-list-users.handler.js';
import { AdminGetUserHandler } from './use-cases/admin-get-user/admin-get-user.handler.js';
import { AdminGetUserActivityHandler } from './use-cases/admin-get-user-activity/admin-get-user-activity.handler.js';
import { AdminSetDisabledHandler } from './use-cases/admin-set-disabled/admin-set-disabled.handler.js';
import { AdminSignOutUserHandler } from './use-cases/admin-sign-out-user/admin-sign-out-user.handler.js';
import { AdminDeleteUserHandler } from './use-cases/admin-delete-user/admin-delete-user.handler.js';
import { DeleteAccountHandler } from './use-cases/delete-account/delete-account.handler.js';

/** Settings the use cases' policies read; the composition takes them from the configuration. */
export interface Policies {
  readonly signInThrottle: SignInThrottleSettings;
  readonly sessions: SessionSettings;
  readonly mail: MailSettings;
  readonly delivery: DeliverySettings;
  readonly mfa: MfaSettings;
}

/**
 * THE registry of use cases: every command and query the service offers, built from the ports. `main.ts` and the
 * in-memory test world both call it; the HTTP adapter receives its result and each route module picks what it
 * needs (`Pick<UseCases, 'signUp' | 'signIn'>`). Adding a use case is one line here.
 */
export function buildUseCases(ports: Ports, policies: Policies) {
  const throttle = new SignInThrottle(ports, policies.signInThrottle);
  return {
    signUp: new SignUpHandler(ports, policies.sessions, policies.mail.verificationPerAddress),
    signIn: new SignInHandler(ports, throttle, policies.sessions, policies.mail.requireVerifiedEmail),
    refreshSession: new RefreshHandler(ports, policies.sessions, policies.mail.requireVerifiedEmail),
    signOut: new SignOutHandler(ports, policies.mfa),
    revokeSession: new RevokeSessionHandler(ports, policies.mfa),
    changePassword: new ChangePasswordHandler(ports, policies.sessions, policies.mfa),
    requestPasswordReset: new RequestPasswordResetHandler(ports, policies.mail),
    confirmPasswordReset: new ConfirmPasswordResetHandler(ports, policies.mail),
    verifyEmail: new VerifyEmailHandler(ports, policies.mail),
    resendVerification: new ResendVerificationHandler(ports, policies.mail),
    cancelSignUp: new CancelSignUpHandler(ports, policies.mail),
    sweepUnverifiedAccounts: new SweepUnverifiedAccountsHandler(ports, policies.mail),
    deliverMail: new DeliverMailHandler(ports, policies.mail, policies.delivery),
    changeProfile: new ChangeProfileHandler(ports),
    authenticate: new AuthenticateHandler(ports, policies.mail.requireVerifiedEmail),
    getCurrentUser: new GetCurrentUserHandler(ports),
    getAccountActivity: new GetAccountActivityHandler(ports),
    exportAccount: new ExportAccountHandler(ports),
    listSessions: new ListSessionsHandler(ports),
    listCredentials: new ListCredentialsHandler(ports),
    deleteAccount: new DeleteAccountHandler(ports, policies),
    introspectToken: new IntrospectTokenHandler(ports, policies.mail.requireVerifiedEmail),
    adminListUsers: new AdminListUsersHandler(ports),
    adminGetUser: new AdminGetUserHandler(ports),
    adminGetUserActivity: new AdminGetUserActivityHandler(ports),
    adminSetDisabled: new AdminSetDisabledHandler(ports),
    adminSignOutUser: new AdminSignOutUserHandler(ports),
    adminDeleteUser: new AdminDeleteUserHandler(ports),
    /** Ports the edge reads as they are: no rule of the application sits between them and the client. */
    authenticateApiKey: ports.operatorKeys,
    admission: ports.admission,
    publicKeys: ports.publicKeys,
    storeHealth: ports.storeHealth,
  } as const;
}

export type UseCases = ReturnType<typeof buildUseCases>;

/** What the driving adapters may know of the application besides the registry: types and limits they document. */
export type { Principal } from './shared/principal.js';
export type { AccountResource, AuthResult, SignInOutcome } from './shared/auth-result.js';
export type { ApiKeyPrincipal } from './shared/operator.js';
export type { CredentialResource } from './use-cases/list-credentials/list-credentials.handler.js';
export type { Introspection } from './use-cases/introspect-token/introspect-token.handler.js';
export { API_KEY_SCOPES, type ApiKeyScope } from '../domain/operator.js';
export { REAUTH_ACTIONS } from './ports/reauthentications.port.js';
export { SIGN_OUT_SCOPES } from './use-cases/sign-out/sign-out.handler.js';
export { SECOND_FACTOR_METHODS } from './policies/second-factor.js';
export { ACTIVITY_PAGE_DEFAULT, ACTIVITY_PAGE_MAX } from './use-cases/get-account-activity/get-account-activity.handler.js';
export { SESSIONS_PAGE_DEFAULT, SESSIONS_PAGE_MAX } from './use-cases/list-sessions/list-sessions.handler.js';
export { ADMIN_PAGE_DEFAULT, ADMIN_PAGE_MAX } from './use-cases/admin-list-users/admin-list-users.handler.js';
export type { AdminUserResource } from './shared/admin.js';
