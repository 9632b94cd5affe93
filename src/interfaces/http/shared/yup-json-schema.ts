import type { AnySchema, SchemaDescription, SchemaFieldDescription } from 'yup';

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it), kept loose on purpose. */
export type JsonSchema = Record<string, unknown>;

/** Rules a yup test cannot show (domain value-object rules), stated with the domain's own constants. */
export type FieldAnnotations = Readonly<Record<string, JsonSchema>>;

const STRING_TESTS: Readonly<Record<string, (params: Record<string, unknown>) => JsonSchema>> = {
  min: (params) => ({ minLength: params['min'] }),
  max: (params) => ({ maxLength: params['max'] }),
  length: (params) => ({ minLength: params['length'], maxLength: params['length'] }),
  email: () => ({ format: 'email' }),
  matches: (params) => ({ pattern: String(params['regex']).slice(1, String(params['regex']).lastIndexOf('/')) }),
};

const isDescription = (field: SchemaFieldDescription): field is SchemaDescription => 'type' in field && 'tests' in field;

const typed = (type: string, nullable: boolean): JsonSchema => ({ type: nullable ? [type, 'null'] : type });

const fromTests = (description: SchemaDescription): JsonSchema =>
  Object.assign(
    {},
    ...description.tests.map((test) => (test.name && description.type === 'string' ? (STRING_TESTS[test.name]?.(test.params ?? {}) ?? {}) : {})),
  ) as JsonSchema;

const metaSchema = (description: SchemaDescription): JsonSchema => {
  const meta = (description as { meta?: { jsonSchema?: JsonSchema } }).meta;
  return meta?.jsonSchema ?? {};
};

function convert(description: SchemaFieldDescription, annotations: FieldAnnotations): JsonSchema {
  if (!isDescription(description)) return {};
  if (description.type !== 'object' || !('fields' in description)) {
    return { ...typed(description.type, description.nullable), ...fromTests(description), ...metaSchema(description) };
  }
  const entries = Object.entries((description as SchemaDescription & { fields: Record<string, SchemaFieldDescription> }).fields);
  return {
    type: 'object',
    properties: Object.fromEntries(entries.map(([name, field]) => [name, { ...convert(field, {}), ...annotations[name] }])),
    required: entries.filter(([, field]) => isDescription(field) && !field.optional).map(([name]) => name),
    ...metaSchema(description),
  };
}

/**
 * The JSON Schema of a yup schema, read from `schema.describe()`: types, required fields, yup's own string
 * tests and any `meta({ jsonSchema })`, plus per-field annotations for rules yup only sees as opaque tests.
 * Documentation only: yup stays the validator.
 */
export const yupToJsonSchema = (schema: AnySchema, annotations: FieldAnnotations = {}): JsonSchema =>
  convert(schema.describe(), annotations);
