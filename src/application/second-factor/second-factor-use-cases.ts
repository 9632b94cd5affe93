import type { Policies } from '../registry.js';
import { SignInThrottle } from '../policies/sign-in-throttle.js';
import type { SecondFactorPorts } from './ports/second-factor-ports.js';
import { AdminRemoveMfaHandler } from './use-cases/admin-remove-mfa/admin-remove-mfa.handler.js';
import { ConfirmTotpHandler } from './use-cases/confirm-totp/confirm-totp.handler.js';
import { EnrolTotpHandler } from './use-cases/enrol-totp/enrol-totp.handler.js';
import { RegenerateRecoveryCodesHandler } from './use-cases/regenerate-recovery-codes/regenerate-recovery-codes.handler.js';
import { RemoveTotpHandler } from './use-cases/remove-totp/remove-totp.handler.js';
import { SignInMfaHandler } from './use-cases/sign-in-mfa/sign-in-mfa.handler.js';
import { VerifyMfaHandler } from './use-cases/verify-mfa/verify-mfa.handler.js';

/**
 * The second factor's use cases: an authenticator app enrolled (with the holder proved), confirmed with its first
 * code (the recovery codes shown once), removed, its recovery codes made again; a sign-in's challenge answered; a
 * step-up; and an operator's removal of a locked-out account's factor. Wrong codes count against the account's
 * sign-in throttle, the core's, over the same counters.
 */
export const secondFactorUseCases = (ports: SecondFactorPorts, policies: Policies) => {
  const throttle = new SignInThrottle(ports, policies.signInThrottle);
  return {
    signInMfa: new SignInMfaHandler(ports, throttle, policies.sessions, policies.mfa),
    enrolTotp: new EnrolTotpHandler(ports, policies),
    confirmTotp: new ConfirmTotpHandler(ports),
    verifyMfa: new VerifyMfaHandler(ports, throttle, policies.mfa),
    removeTotp: new RemoveTotpHandler(ports, policies.sessions, policies.mfa),
    regenerateRecoveryCodes: new RegenerateRecoveryCodesHandler(ports, policies.mfa),
    adminRemoveMfa: new AdminRemoveMfaHandler(ports),
  } as const;
};

export type SecondFactorUseCases = ReturnType<typeof secondFactorUseCases>;
