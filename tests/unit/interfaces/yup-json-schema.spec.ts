import { expect } from 'chai';
import { boolean, number, object, string } from 'yup';
import { signInSchema } from '../../../src/interfaces/http/shared/request-body.js';
import { yupToJsonSchema } from '../../../src/interfaces/http/shared/yup-json-schema.js';

describe('yupToJsonSchema', () => {
  it('reads types, required fields, yup string tests, nullability and meta from describe()', () => {
    const schema = object({
      nick: string().required().min(2).max(10),
      bio: string().nullable().optional(),
      mail: string().email().required(),
      age: number().required(),
      admin: boolean().optional(),
      code: string().required().meta({ jsonSchema: { pattern: '^[A-Z]{3}$' } }),
    });
    expect(yupToJsonSchema(schema)).to.deep.equal({
      type: 'object',
      properties: {
        nick: { type: 'string', minLength: 2, maxLength: 10 },
        bio: { type: ['string', 'null'] },
        mail: { type: 'string', format: 'email' },
        age: { type: 'number' },
        admin: { type: 'boolean' },
        code: { type: 'string', pattern: '^[A-Z]{3}$' },
      },
      required: ['nick', 'mail', 'age', 'code'],
    });
  });

  it('adds per-field annotations for rules yup holds as opaque tests (the domain value objects)', () => {
    expect(yupToJsonSchema(signInSchema, { email: { maxLength: 254 } })).to.deep.equal({
      type: 'object',
      properties: { email: { type: 'string', maxLength: 254 }, password: { type: 'string' } },
      required: ['email', 'password'],
    });
  });
});
