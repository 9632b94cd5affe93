import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';

/** The commands docs/security.md gives for each key and secret, named in the message that asks for one. */
export const KEY_COMMANDS = {
  signingKey: 'openssl ecparam -name prime256v1 -genkey -noout | openssl pkcs8 -topk8 -nocrypt > jwt.pem',
  secret: 'openssl rand -base64 48',
} as const;

/** What the rules read of the validated environment (CONFIG_SCHEMA's values). */
export interface RuleEnv {
  readonly NODE_ENV: string;
  readonly DATA_DIR: string;
  readonly STORAGE?: string | undefined;
  readonly WORKERS: number;
  readonly HEADERS_TIMEOUT_MS: number;
  readonly REQUEST_TIMEOUT_MS: number;
  readonly MAIL_TRANSPORT?: string | undefined;
  readonly RATE_LIMIT_STORE: string;
  readonly ALLOW_SIGNING_KEY_IN_DATA_DIR: string;
  readonly JWT_PRIVATE_KEY_FILE?: string | undefined;
  readonly PERSONAL_DATA_KEY_FILE?: string | undefined;
  readonly PAGES_ACCENT_COLOR: string;
  readonly PAGES_BACKGROUND_COLOR: string;
  readonly PAGES_TEXT_COLOR: string;
}

/** Whether a variable was given: with a valid value, or with one the schema refused (already reported). */
export type Given = (variable: string) => boolean;

/** A rule across variables: its problem (naming each variable and the way out), or undefined when it holds. */
type Rule = (env: RuleEnv, given: Given) => string | undefined;

/** The real path of `path` (symbolic links resolved), for the part of it that exists; the rest appended as written. */
const realPathOf = (path: string): string => {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    const parent = dirname(absolute);
    return parent === absolute ? absolute : join(realPathOf(parent), basename(absolute));
  }
};

const inside = (dir: string, file: string): boolean => {
  const path = relative(realPathOf(dir), realPathOf(file));
  return path !== '' && !path.startsWith('..') && !isAbsolute(path);
};

const production = (env: RuleEnv) => env.NODE_ENV === 'production';

/**
 * The rules no single variable's schema can say. In production the JWT signing key may not live inside DATA_DIR
 * (unless ALLOW_SIGNING_KEY_IN_DATA_DIR=true): without REFRESH_TOKEN_SECRET every token key is derived from it, so a
 * copy of DATA_DIR would be enough to mint refresh tokens. The personal-data key may not lie there either, whatever that
 * setting says: beside the store, it would open every sealed field of a copy of it. Production needs both keys given,
 * and mail that someone reads (SMTP_URL, unless MAIL_TRANSPORT=file says files are meant).
 */
const RULES: readonly Rule[] = [
  (env, given) => (env.STORAGE === 'mongodb' && !given('MONGODB_URI') ? 'MONGODB_URI is required when STORAGE=mongodb' : undefined),
  (env, given) => (env.STORAGE === 'postgres' && !given('DATABASE_URL') ? 'DATABASE_URL is required when STORAGE=postgres' : undefined),
  (env) =>
    env.WORKERS > 1 && env.STORAGE === 'memory'
      ? 'WORKERS above 1 needs a store the workers share (STORAGE=lmdb, mongodb or postgres), not STORAGE=memory'
      : undefined,
  (env) => (env.HEADERS_TIMEOUT_MS > env.REQUEST_TIMEOUT_MS ? 'HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS' : undefined),
  (env, given) => (env.MAIL_TRANSPORT === 'smtp' && !given('SMTP_URL') ? 'SMTP_URL is required when MAIL_TRANSPORT=smtp' : undefined),
  (env, given) =>
    production(env) && env.MAIL_TRANSPORT === undefined && !given('SMTP_URL')
      ? 'SMTP_URL is required when NODE_ENV=production (without it, reset and verification links would be written to DATA_DIR/mail, where nobody reads them); set MAIL_TRANSPORT=file to mean that'
      : undefined,
  (env, given) => (env.RATE_LIMIT_STORE === 'redis' && !given('REDIS_URL') ? 'REDIS_URL is required when RATE_LIMIT_STORE=redis' : undefined),
  (env, given) =>
    production(env) && !given('JWT_PRIVATE_KEY') && !given('JWT_PRIVATE_KEY_FILE')
      ? `JWT_PRIVATE_KEY_FILE (or JWT_PRIVATE_KEY) is required when NODE_ENV=production: the ES256 key access tokens are signed with, kept outside DATA_DIR. Make one with: ${KEY_COMMANDS.signingKey}`
      : undefined,
  (env, given) =>
    production(env) && !given('PERSONAL_DATA_KEY') && !given('PERSONAL_DATA_KEY_FILE')
      ? `PERSONAL_DATA_KEY (or PERSONAL_DATA_KEY_FILE) is required when NODE_ENV=production: the key (32 characters or more) personal data is sealed under at rest, kept outside DATA_DIR and never changed. Make one with: ${KEY_COMMANDS.secret}`
      : undefined,
  (_env, given) => (given('PERSONAL_DATA_KEY') && given('PERSONAL_DATA_KEY_FILE') ? 'set PERSONAL_DATA_KEY or PERSONAL_DATA_KEY_FILE, not both' : undefined),
  (env) => {
    const file = env.JWT_PRIVATE_KEY_FILE;
    if (!production(env) || env.ALLOW_SIGNING_KEY_IN_DATA_DIR === 'true' || file === undefined || !inside(env.DATA_DIR, file)) return undefined;
    return (
      `JWT_PRIVATE_KEY_FILE (${file}) is inside DATA_DIR (${env.DATA_DIR}): a copy of DATA_DIR would hold every key. ` +
      'Keep the key elsewhere (a secret mount), or set ALLOW_SIGNING_KEY_IN_DATA_DIR=true if that directory is protected like the key itself'
    );
  },
  // The pages' colours: a page people cannot read is a configuration error, said with its contrast.
  (env) => {
    const ratio = contrastRatio(env.PAGES_ACCENT_COLOR, '#ffffff');
    return ratio < 4.5 ? `white text on PAGES_ACCENT_COLOR ${env.PAGES_ACCENT_COLOR} reads at ${ratio.toFixed(2)}:1, under 4.5:1: choose a darker colour` : undefined;
  },
  (env) => {
    const ratio = contrastRatio(env.PAGES_TEXT_COLOR, env.PAGES_BACKGROUND_COLOR);
    return ratio < 4.5 ? `PAGES_TEXT_COLOR ${env.PAGES_TEXT_COLOR} on PAGES_BACKGROUND_COLOR ${env.PAGES_BACKGROUND_COLOR} reads at ${ratio.toFixed(2)}:1, under 4.5:1` : undefined;
  },
  (env) => {
    const ratio = contrastRatio(env.PAGES_ACCENT_COLOR, env.PAGES_BACKGROUND_COLOR);
    return ratio < 3 ? `PAGES_ACCENT_COLOR ${env.PAGES_ACCENT_COLOR} on PAGES_BACKGROUND_COLOR ${env.PAGES_BACKGROUND_COLOR} reads at ${ratio.toFixed(2)}:1, under 3:1 (the focus ring and buttons must stand out)` : undefined;
  },
  (env) => {
    const file = env.PERSONAL_DATA_KEY_FILE;
    if (!production(env) || file === undefined || !inside(env.DATA_DIR, file)) return undefined;
    return `PERSONAL_DATA_KEY_FILE (${file}) is inside DATA_DIR (${env.DATA_DIR}): a copy of DATA_DIR would open every sealed field. Keep the key elsewhere (a secret mount)`;
  },
];

/** The WCAG contrast ratio of two #rrggbb colours (1 to 21). */
export const contrastRatio = (one: string, other: string): number => {
  const luminance = (hex: string): number => {
    const [r = 0, g = 0, b = 0] = [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(one), luminance(other)].sort((a, b) => b - a) as [number, number];
  return (light + 0.05) / (dark + 0.05);
};

/** Every rule the environment breaks, in one list (empty when all hold). */
export const ruleProblems = (env: RuleEnv, given: Given): string[] => RULES.flatMap((rule) => rule(env, given) ?? []);
