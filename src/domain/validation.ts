import { type FieldIssue, type FieldIssueCode, InvalidInput } from './domain-error.js';

/** The outcome of parsing one raw input into a value object. */
export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly issues: FieldIssue[] };

export const valid = <T>(value: T): Parsed<T> => ({ ok: true, value });

export const invalid = <T>(field: string, code: FieldIssueCode, message: string): Parsed<T> => ({
  ok: false,
  issues: [{ field, code, message }],
});

type ParsedValues<T extends Record<string, Parsed<unknown>>> = { [K in keyof T]: T[K] extends Parsed<infer V> ? V : never };

/** Collects every field's issues at once; throws one InvalidInput listing all of them, or returns the values. */
export function requireAll<T extends Record<string, Parsed<unknown>>>(parsed: T): ParsedValues<T> {
  const issues = Object.values(parsed).flatMap((result) => (result.ok ? [] : result.issues));
  if (issues.length > 0) throw new InvalidInput(issues);
  return Object.fromEntries(
    Object.entries(parsed).map(([key, result]) => [key, result.ok ? result.value : undefined]),
  ) as ParsedValues<T>;
}

// Covers C0, DEL and C1 control characters.
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/u;

/**
 * The first step of parsing any raw input value: it must be a string. Absent (undefined or null) reads as
 * "is required", another JSON type as "must be a string", so that every field's issue is found in one pass.
 */
export const rawText = (field: string, raw: unknown): Parsed<string> => {
  if (raw === undefined || raw === null) return invalid(field, 'REQUIRED', 'is required');
  return typeof raw === 'string' ? valid(raw) : invalid(field, 'NOT_A_STRING', 'must be a string');
};

/** True for a string holding an unpaired UTF-16 surrogate (not representable as UTF-8). */
const LONE_SURROGATE = /\p{Cs}/u;

export const hasLoneSurrogate = (text: string): boolean => LONE_SURROGATE.test(text);
