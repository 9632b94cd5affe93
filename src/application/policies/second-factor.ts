import { InvalidInput } from '../../domain/domain-error.js';
import { steppedUp } from '../../domain/session.js';
import { type Parsed, invalid, valid } from '../../domain/validation.js';
import { StepUpRequired } from '../errors.js';
import type { Ports } from '../ports/ports.js';
import type { CodeAnswer } from '../ports/mfa.port.js';

export type { CodeAnswer } from '../ports/mfa.port.js';
import type { Principal } from '../shared/principal.js';

/** The second factor's settings (MFA_CHALLENGE_SECONDS, MFA_STEP_UP_SECONDS). */
export interface MfaSettings {
  /** How long a sign-in challenge may be answered. */
  readonly challengeSeconds: number;
  /** How recent a second-factor proof step-up asks for. */
  readonly stepUpSeconds: number;
}

/** What a sign-in challenge may be answered with, whatever the account holds besides its factor. */
export const MFA_METHODS = ['totp', 'recovery_code'] as const;

/**
 * Every method a challenge may name (its `methods`, as documented): MFA_METHODS, and the authenticators' (`webauthn`,
 * for an account with a passkey: the port AUTHENTICATORS).
 */
export const SECOND_FACTOR_METHODS = [...MFA_METHODS, 'webauthn'] as const;

/**
 * Step-up: resolves when the account has no confirmed factor, or when the principal's token proved one within
 * MFA_STEP_UP_SECONDS; throws StepUpRequired otherwise. One read (the factor).
 */
export async function requireStepUp(deps: Pick<Ports, 'mfa' | 'clock'>, settings: MfaSettings, principal: Principal): Promise<void> {
  if (!(await deps.mfa.requiredFor(principal.userId))) return;
  if (!steppedUp(principal.amr, principal.authTime, deps.clock.now(), settings.stepUpSeconds)) throw new StepUpRequired(settings.stepUpSeconds);
}


/** A second factor presented: a code, or an authenticator's answer (a passkey's: `navigator.credentials.get`, as JSON). */
export type FactorAnswer = CodeAnswer | { readonly kind: 'authenticator'; readonly response: unknown };

const given = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

/** What a command may carry as its second factor. */
export interface FactorInput {
  readonly code?: unknown;
  readonly recoveryCode?: unknown;
  readonly response?: unknown;
}

/**
 * Exactly one of `code`, `recoverycode` and (where `authenticators`: a capability provides them) `response`; codes
 * must be strings. The issue on `code` (or on the field of a non-string) otherwise.
 */
export function parseFactorAnswer(input: FactorInput, authenticators = false): Parsed<FactorAnswer> {
  const sent = [given(input.code), given(input.recoveryCode), authenticators && given(input.response)].filter(Boolean).length;
  const choices = authenticators ? 'a code, a recovery code or a passkey answer (response)' : 'a code or a recovery code';
  if (sent !== 1) return invalid('code', 'ONE_OF_SEVERAL', sent === 0 ? `send ${choices}` : `send ${choices}, only one`);
  if (authenticators && given(input.response)) return valid({ kind: 'authenticator', response: input.response });
  const [kind, raw] = given(input.code) ? (['code', input.code] as const) : (['recoverycode', input.recoveryCode] as const);
  return typeof raw === 'string' ? valid({ kind, answer: raw.trim() }) : invalid(kind, 'NOT_A_STRING', 'must be a string');
}

/** The one answer of a command that must carry a factor, parsed, or InvalidInput. */
export const requireFactorAnswer = (input: FactorInput, authenticators = false): FactorAnswer => {
  const parsed = parseFactorAnswer(input, authenticators);
  if (!parsed.ok) throw new InvalidInput(parsed.issues);
  return parsed.value;
};
