import { type ObjectSchema, type StringSchema, ValidationError, object, string } from 'yup';
import type { FieldIssue } from '../../domain/domain-error.js';
import { Email } from '../../domain/email.js';
import { PlainPassword } from '../../domain/password.js';
import { PersonName } from '../../domain/person-name.js';
import type { Parsed } from '../../domain/validation.js';

/**
 * Request shapes. yup owns the shape (present, a string); the domain's value objects own the content
 * rules, called from here so that one 400 lists every offending field at once.
 */
const text = (rule: (value: string, parent: Record<string, unknown>) => Parsed<unknown>): StringSchema<string> =>
  string()
    .strict()
    .typeError('must be a string')
    .required('is required')
    .test('domain-rule', function check(value) {
      const parsed = rule(value, this.parent as Record<string, unknown>);
      return parsed.ok || this.createError({ message: parsed.issues.map((issue) => issue.message).join('; ') });
    });

const emailOf = (parent: Record<string, unknown>): Email | null => {
  if (typeof parent['email'] !== 'string') return null;
  const parsed = Email.parse(parent['email']);
  return parsed.ok ? parsed.value : null;
};

export interface SignUpBody {
  name: string;
  lastname: string;
  email: string;
  password: string;
}

export interface SignInBody {
  email: string;
  password: string;
}

export const signUpSchema: ObjectSchema<SignUpBody> = object({
  name: text((value) => PersonName.parse('name', value)),
  lastname: text((value) => PersonName.parse('lastname', value)),
  email: text((value) => Email.parse(value)),
  password: text((value, parent) => PlainPassword.choose(value, emailOf(parent))),
});

export const signInSchema: ObjectSchema<SignInBody> = object({
  email: text((value) => Email.parse(value)),
  password: text((value) => PlainPassword.parse(value)),
});

const isPlainObject = (body: unknown): body is Record<string, unknown> =>
  typeof body === 'object' && body !== null && !Array.isArray(body);

export type Validated<T> = { ok: true; value: T } | { ok: false; issues: FieldIssue[] };

/** Validates a parsed JSON body against a schema, synchronously (every rule is), returning every field issue at once. Never throws. */
export function validateBody<T extends object>(schema: ObjectSchema<T>, body: unknown): Validated<T> {
  if (!isPlainObject(body)) return { ok: false, issues: [{ field: null, message: 'body must be a JSON object' }] };
  const fields = Object.keys(schema.fields);
  const known = Object.fromEntries(fields.filter((key) => Object.hasOwn(body, key)).map((key) => [key, body[key]]));
  try {
    const value = schema.validateSync(known, { abortEarly: false, stripUnknown: true, disableStackTrace: true });
    return { ok: true, value: value as T };
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const issues = error.inner.map((inner) => ({ field: inner.path ?? null, message: inner.message }));
    return { ok: false, issues: fields.flatMap((field) => issues.filter((issue) => issue.field === field).slice(0, 1)) };
  }
}
