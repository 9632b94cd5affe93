import { type AnyObjectSchema, type Schema, type SchemaDescription, isSchema } from 'yup';
import { CONFIG_DESCRIPTIONS, CONFIG_SECTIONS, type ConfigDescription } from '../../src/infrastructure/config/config-descriptions.js';
import { CONFIG_SCHEMA } from '../../src/infrastructure/config/config.js';
import { CAPABILITIES } from '../../src/capabilities/index.js';
import { code, table } from './markdown.js';

/** A description as the table reads it: ConfigDescription with any section name (the sections come with the source). */
export type VariableDoc = Omit<ConfigDescription, 'section'> & { readonly section: string };

/** What the table is made of: a schema of environment variables, what each means, and the order of the topics. */
export interface ConfigSource {
  readonly schema: AnyObjectSchema;
  readonly descriptions: Readonly<Record<string, VariableDoc>>;
  readonly sections: readonly string[];
}

const capabilitySettings = CAPABILITIES.flatMap((capability) => Object.entries(capability.settings));

/**
 * The service's own configuration, the core's and every capability's (their manifests' `settings`): what
 * docs/configuration.md and the `config-table` region are generated from.
 */
export const SERVICE_CONFIG: ConfigSource = {
  schema: CONFIG_SCHEMA.shape(Object.fromEntries(capabilitySettings.map(([name, { schema }]) => [name, schema]))),
  descriptions: { ...CONFIG_DESCRIPTIONS, ...Object.fromEntries(capabilitySettings.map(([name, { schema: _schema, ...doc }]) => [name, doc])) },
  sections: CONFIG_SECTIONS,
};

/** One variable as the reference shows it. */
interface Variable {
  readonly name: string;
  readonly schema: Schema;
  readonly description: SchemaDescription;
  readonly doc: VariableDoc;
}

const UNITS: Readonly<Record<string, readonly (readonly [string, number])[]>> = {
  SECONDS: [['day', 86_400], ['h', 3600], ['min', 60]],
  MS: [['day', 86_400_000], ['h', 3_600_000], ['min', 60_000], ['s', 1000]],
  BYTES: [['GiB', 1024 ** 3], ['MiB', 1024 ** 2], ['KiB', 1024]],
  KIB: [['GiB', 1024 ** 2], ['MiB', 1024]],
};

/** `14 days` for SESSION_IDLE_TIMEOUT_SECONDS=1209600: the largest unit (by the name's suffix) that divides the value. */
export const humane = (name: string, value: number): string | null => {
  const units = UNITS[name.slice(name.lastIndexOf('_') + 1)] ?? [];
  const unit = units.find(([, size]) => value >= size && value % size === 0);
  if (!unit) return null;
  const count = value / unit[1];
  return `${count} ${unit[0]}${unit[0] === 'day' && count !== 1 ? 's' : ''}`;
};

const plain = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

const defaultOf = ({ name, schema, description, doc }: Variable): string => {
  const computed = typeof schema.spec.default === 'function';
  if (computed && doc.whenUnset === undefined) {
    throw new Error(`${name}: its default is computed at start; say what it is with whenUnset in config-descriptions.ts`);
  }
  if (doc.whenUnset !== undefined) {
    if (!computed && description.default !== undefined) {
      throw new Error(`${name}: whenUnset contradicts the schema's default (${plain(description.default)}); remove it from config-descriptions.ts`);
    }
    return doc.whenUnset;
  }
  if (description.default === undefined) return '—';
  const value = plain(description.default);
  const readable = typeof description.default === 'number' ? humane(name, description.default) : null;
  return readable === null ? code(value) : `${code(value)} (${readable})`;
};

const param = (description: SchemaDescription, test: string, key: string): number | undefined => {
  const value = description.tests.find((entry) => entry.name === test)?.params?.[key];
  return typeof value === 'number' ? value : undefined;
};

/** `must start with …` from a test's own message (`MONGODB_URI must start with …`, `${path} must be …`). */
const ruleOf = (schema: Schema, test: string): string | null => {
  const message = schema.tests.find((entry) => entry.OPTIONS?.name === test)?.OPTIONS?.message;
  return typeof message === 'string' ? message.replace(/^(\$\{path\}|[A-Z][A-Z0-9_]*) /, '') : null;
};

const numberRange = (description: SchemaDescription): string => {
  const kind = description.tests.some((entry) => entry.name === 'integer') ? 'integer' : 'number';
  const min = param(description, 'min', 'min');
  const max = param(description, 'max', 'max');
  if (min !== undefined && max !== undefined) return `${kind}, ${min} to ${max}`;
  if (min !== undefined) return `${kind}, at least ${min}`;
  return max === undefined ? kind : `${kind}, at most ${max}`;
};

const STRING_BOOKKEEPING = new Set(['trim', 'min', 'max', 'optionality', 'typeError']);

const textRule = (schema: Schema, description: SchemaDescription): string => {
  const min = param(description, 'min', 'min');
  const length = min === undefined ? [] : [min === 1 ? 'not empty' : `at least ${min} characters`];
  const rules = description.tests
    .map((entry) => entry.name)
    .filter((name): name is string => name !== undefined && !STRING_BOOKKEEPING.has(name))
    .map((name) => ruleOf(schema, name) ?? `passes the \`${name}\` check`);
  const all = [...length, ...rules];
  return all.length === 0 ? 'any text' : all.join('; ');
};

/** The allowed values or range, read from the schema: its oneOf list, its min/max/integer tests, its own rules. */
const allowedOf = ({ schema, description }: Variable): string => {
  const values = description.oneOf.filter((value) => value !== undefined);
  if (values.length > 0) return values.map((value) => code(plain(value))).join(', ');
  if (description.type === 'number') return numberRange(description);
  return textRule(schema, description);
};

const variablesOf = (source: ConfigSource): Variable[] => {
  const described = new Set(Object.keys(source.descriptions));
  const missing = Object.keys(source.schema.fields).filter((name) => !described.has(name));
  const stray = [...described].filter((name) => !(name in source.schema.fields));
  if (missing.length > 0 || stray.length > 0) {
    throw new Error(
      `Configuration descriptions out of step with the schema: ${[...missing.map((name) => `${name} has no description`), ...stray.map((name) => `${name} is described but not in the schema`)].join('; ')}`,
    );
  }
  return Object.entries(source.descriptions).map(([name, doc]) => {
    const field: unknown = source.schema.fields[name];
    if (!isSchema(field)) throw new Error(`${name}: not a plain schema (a reference or lazy schema cannot be documented)`);
    if (!source.sections.includes(doc.section)) throw new Error(`${name}: unknown section "${doc.section}"`);
    const schema = field as Schema;
    return { name, schema, description: schema.describe(), doc };
  });
};

/**
 * The table of every variable (variable | default | allowed values | meaning), grouped by section in the sections'
 * order. Defaults and ranges are read from the schema, never typed twice. Throws when a variable has no
 * description, a description has no variable, or a computed default is not explained.
 */
export function renderConfigTable(source: ConfigSource = SERVICE_CONFIG): string {
  const variables = variablesOf(source);
  const rows = source.sections.flatMap((section) => {
    const inSection = variables.filter((variable) => variable.doc.section === section);
    if (inSection.length === 0) return [];
    return [[`**${section}**`, '', '', ''], ...inSection.map((variable) => [code(variable.name), defaultOf(variable), allowedOf(variable), variable.doc.meaning])];
  });
  return table(['variable', 'default', 'allowed values', 'meaning'], rows);
}

/** docs/configuration.md, whole: a short note on where it comes from, then the table. */
export function renderConfigurationPage(source: ConfigSource = SERVICE_CONFIG): string {
  return `# Configuration

Every environment variable the service reads. All are validated at start: missing or wrong values stop the service
(exit code 1) with one message listing every one of them, each naming its variable and, for a key or secret, the
command that makes one ([Security](security.md)).

This page is generated by \`npm run docs:generate\` from the configuration schema
(\`src/infrastructure/config/config.ts\`: defaults and allowed values) and the descriptions beside it
(\`src/infrastructure/config/config-descriptions.ts\`: meanings and topics). Do not edit it by hand: change the code
and run the generator again; a test fails while this page differs from what the code says.

${renderConfigTable(source)}
`;
}
