import type { JsonSchema } from './shared/yup-json-schema.js';

/**
 * A realistic value for each property name the API uses, so that the document shows (and Swagger UI fills in)
 * `ada@example.com` rather than `"string"` or a random Korean address. A property whose name means something else in
 * one operation declares its own `examples` in its field docs, which win. Every address is at `example.com`.
 */
export const FIELD_EXAMPLES: Readonly<Record<string, unknown>> = {
  // The account.
  id: '0b5b3c41-6f1d-4d0a-9a3e-2f6a1c9d7e42',
  email: 'ada@example.com',
  newemail: 'ada.lovelace@example.com',
  name: 'Ada',
  lastname: 'Lovelace',
  password: 'correct-horse-battery-staple',
  currentpassword: 'correct-horse-battery-staple',
  newpassword: 'analytical-engine-1843',
  // Tokens, each in the form the service makes it.
  accesstoken:
    'eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6Ik5hM3dqX0dEQ1BfMXJzVGZnYmZvT2NmVkxhRnBaSFRlR0g4T3d3a1lVeGsifQ.eyJzdWIiOiIwYjViM2M0MS02ZjFkLTRkMGEtOWEzZS0yZjZhMWM5ZDdlNDIiLCJzaWQiOiI0YTZlOTBjNy0xYjJmLTRjNWQtOGUzYS0xZjJkM2M0YjVhNmUifQ.V6Kq9m3xZy1d0q8n2Rk7bQ4pW5s1Tt3uXv9YzA0bC2dE4fG6hI8jK0lM2nO4pQ6rS8tU0vW2xY4zA6bC8dE0fG',
  refreshtoken: 'rt1.4a6e90c7-1b2f-4c5d-8e3a-1f2d3c4b5a6e.0.kJ3n0Yq5xW8v2Zr7Tb1Lc9Hd4Mf6Gp0Ss2Ua5Ie8Oo',
  mfatoken: 'mfa1.7d2c5e80-3f41-4b6a-9c8d-0e1f2a3b4c5d.Zx8Qw3Er6Ty9Ui2Op5As8Df1Gh4Jk7Lz0Xc3Vb6Nm9',
  token: 'verify1.0b5b3c41-6f1d-4d0a-9a3e-2f6a1c9d7e42.1796640000000.Pq7Wm2Xn5Zr8Tb1Lc4Hd7Mf0Gp3Ss6Ua9Ie2Oo5Kj8',
  code: '492039',
  recoverycode: 'kq7fm-3zdpx',
  recoverycodes: ['kq7fm-3zdpx', 'w4plh-t6bcn', 'r2mxa-j5qze', 'h7vtd-6kpwa', 'c3nyf-q2lme', 'z5gsr-m7hvb', 'p6qwe-2xkjd', 'e4hbz-y3rnu', 'm2trk-w5sfa', 'u7jnc-d4pql'],
  oauthcode: 'oc_Hq3Lm8Zr1Tb6Xw9Vn2Kd5Pf0Gs4Ua7Ie',
  code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  uri: 'otpauth://totp/Account%20service:ada%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Account%20service',
  qrcode: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAQAAAAEACAIAAADTED8xAAAD',
  challenge: 'mY2c0RkH1x8m2Q4Vb7Jp9Tn3Ls6Wd0Fa',
  expiresin: 900,
  // Sessions, activity, credentials.
  createdat: '2026-12-07T09:30:00.000Z',
  lastusedat: '2026-12-07T10:12:45.000Z',
  expiresat: '2027-01-06T09:30:00.000Z',
  occurredat: '2026-12-07T09:30:00.000Z',
  exportedat: '2026-12-07T11:00:00.000Z',
  clientip: '203.0.113.7',
  useragent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  nextcursor: 'eyJjIjoxNzk2NjQwMDAwMDAwLCJpIjoiNGE2ZTkwYzcifQ',
  recoverycodesleft: 10,
  provider: 'google',
  kind: 'passkey',
  transports: ['internal', 'hybrid'],
  amr: ['pwd'],
  redirect_to: 'https://app.example.com/auth/callback',
  url: 'https://accounts.example.com/o/oauth2/v2/auth?client_id=1234.apps.example.com&response_type=code',
  // The JWKS and introspection (RFC 7517, RFC 7662).
  kid: 'Na3wj_GDCP_1rsTfgbfoOcfVLaFpZHTeGH8OwwkYUxk',
  x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tgc2CoNvwhHs',
  y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
  sub: '0b5b3c41-6f1d-4d0a-9a3e-2f6a1c9d7e42',
  sid: '4a6e90c7-1b2f-4c5d-8e3a-1f2d3c4b5a6e',
  iat: 1796640000,
  exp: 1796640900,
  // The error envelope.
  message: 'Invalid input data',
  field: 'email',
};

const FORMATS: Readonly<Record<string, unknown>> = {
  uuid: '0b5b3c41-6f1d-4d0a-9a3e-2f6a1c9d7e42',
  'date-time': '2026-12-07T09:30:00.000Z',
  email: 'ada@example.com',
  'idn-email': 'ada@example.com',
  uri: 'https://app.example.com/',
};

type Schema = JsonSchema & {
  readonly $ref?: string;
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly required?: readonly string[];
  readonly oneOf?: readonly Schema[];
  readonly anyOf?: readonly Schema[];
  readonly items?: Schema;
  readonly type?: string | readonly string[];
};

const typeOf = (schema: Schema): string | undefined => {
  const type: unknown = schema.type;
  if (Array.isArray(type)) return (type as readonly unknown[]).find((each): each is string => typeof each === 'string' && each !== 'null');
  return typeof type === 'string' ? type : undefined;
};

/** Gives each property of `schema` (recursively) that has no example of its own the one its name has, if any. */
export function withFieldExamples(schema: Schema): void {
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const scalar = typeOf(property) !== 'object' && property.$ref === undefined && !('const' in property) && !('enum' in property);
    if (scalar && !('examples' in property) && Object.hasOwn(FIELD_EXAMPLES, name)) (property as Record<string, unknown>)['examples'] = [FIELD_EXAMPLES[name]];
    withFieldExamples(property);
  }
  for (const nested of [...(schema.oneOf ?? []), ...(schema.anyOf ?? []), ...(schema.items ? [schema.items] : [])]) withFieldExamples(nested);
}

/**
 * An example of `schema`, made from its properties' examples: for a request, its required fields (and the first
 * choice of a `oneOf`); for an answer, every property. `missing` receives the path of every value that has no example
 * (a string without `examples`, format, enum or const), which the document's test requires to be none.
 */
export function exampleOf(schema: Schema, resolve: (ref: string) => Schema, kind: 'request' | 'answer', missing: string[], path = ''): unknown {
  if (schema.$ref !== undefined) return exampleOf(resolve(schema.$ref), resolve, kind, missing, path);
  const own = schema as { readonly examples?: readonly unknown[]; readonly const?: unknown; readonly enum?: readonly unknown[]; readonly format?: string };
  if (own.examples !== undefined && own.examples.length > 0) return own.examples[0];
  if ('const' in own) return own.const;
  if (own.enum !== undefined && own.enum.length > 0) return own.enum[0];
  const choice = schema.oneOf?.[0] ?? schema.anyOf?.[0];
  const type = typeOf(schema) ?? (schema.properties ? 'object' : choice ? 'choice' : undefined);
  switch (type) {
    case 'object': {
      const properties = { ...schema.properties, ...choice?.properties };
      const shown = kind === 'answer' ? Object.keys(properties) : [...(schema.required ?? []), ...(choice?.required ?? [])];
      return Object.fromEntries([...new Set(shown)].map((name) => [name, exampleOf(properties[name] ?? {}, resolve, kind, missing, `${path}.${name}`)]));
    }
    case 'choice':
      return exampleOf(choice ?? {}, resolve, kind, missing, path);
    case 'array':
      return schema.items ? [exampleOf(schema.items, resolve, kind, missing, `${path}[]`)] : [];
    case 'boolean':
      return true;
    case 'integer':
    case 'number':
      return (schema as { readonly minimum?: number }).minimum ?? 1;
    case 'string':
      if (own.format !== undefined && Object.hasOwn(FORMATS, own.format)) return FORMATS[own.format];
      missing.push(path || '(body)');
      return 'string';
    default:
      return {};
  }
}
