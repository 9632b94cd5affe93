import { type ObjectSchema, object, string } from 'yup';
import type { FieldIssue } from '../../../domain/domain-error.js';

/**
 * The documented request shapes (OpenAPI is generated from them). At run time the HTTP adapter checks only what is
 * the transport's: the body is a JSON object; it hands the known fields on as they came. Each value, its type
 * included, is parsed once by the use case through the domain's value objects, so that one 400 lists every
 * offending field: a missing name, a number for a last name and a too common password together.
 */
/** A required string field, as documented (the use case enforces it). */
export const text = () => string().strict().typeError('must be a string').required('is required');
/** A string field the operation reads only in one of its forms (documented as optional). */
export const optionalText = () => string().strict().typeError('must be a string').optional();

export const signUpSchema: ObjectSchema<{ name: string; lastname: string; email: string; password: string }> = object({
  name: text(),
  lastname: text(),
  email: text(),
  password: text(),
});

export const signInSchema: ObjectSchema<{ email: string; password: string }> = object({ email: text(), password: text() });

const isPlainObject = (body: unknown): body is Record<string, unknown> =>
  typeof body === 'object' && body !== null && !Array.isArray(body);

export type Fields<T extends object> = { readonly [K in keyof T]: unknown };

export type Validated<T extends object> = { ok: true; value: Fields<T> } | { ok: false; issues: FieldIssue[] };

/** Checks that a parsed JSON body is an object and returns the schema's fields of it, raw (unknown keys dropped). Never throws. */
export function validateBody<T extends object>(schema: ObjectSchema<T>, body: unknown): Validated<T> {
  if (!isPlainObject(body)) return { ok: false, issues: [{ field: null, message: 'body must be a JSON object' }] };
  const fields = Object.keys(schema.fields).map((key) => [key, Object.hasOwn(body, key) ? body[key] : undefined]);
  return { ok: true, value: Object.fromEntries(fields) as Fields<T> };
}
