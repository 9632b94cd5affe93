import { expect } from 'chai';
import { ERROR_TABLE, type ErrorCode, type ErrorRow } from '../../../src/interfaces/http/shared/error-table.js';

/**
 * Compile-time guarantees, checked by `npm run typecheck` (tsc covers tests/): each `@ts-expect-error` below fails
 * the type-check if the line under it ever compiles.
 */
const row: ErrorRow = { status: 400, message: 'm', issues: [], description: 'd', outcome: 'o' };

// @ts-expect-error a table without a row for every ErrorCode (here, all but one) does not compile
export const incomplete: { readonly [C in ErrorCode]: ErrorRow } = { INVALID_INPUT: row };

/** True exactly when A and B are the same type (each assignable to the other). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

// The table itself, not a copy of its type: its keys are exactly the error codes, each with a required row.
export const keysAreTheCodes: Same<keyof typeof ERROR_TABLE, ErrorCode> = true;
export const everyRowRequired: Same<typeof ERROR_TABLE, { readonly [C in ErrorCode]: ErrorRow }> = true;

// @ts-expect-error a string that is not an ErrorCode is not a key of the table (fails if the table ever takes any string)
export const notACode: keyof typeof ERROR_TABLE = 'NOT_A_CODE';

describe('The error table', () => {
  it('answers every code with an error status, a message and an outcome label', () => {
    for (const [code, entry] of Object.entries(ERROR_TABLE)) {
      expect(entry.status, code).to.be.within(400, 599);
      expect(entry.message, code).to.be.a('string').and.not.equal('');
      expect(entry.outcome, code).to.match(/^[a-z_]+$/);
    }
  });

  it('keeps one message per status where clients match on it (400, 503)', () => {
    const messages = new Map<number, Set<string>>();
    for (const entry of Object.values(ERROR_TABLE)) messages.set(entry.status, (messages.get(entry.status) ?? new Set()).add(entry.message));
    expect(messages.get(400)).to.deep.equal(new Set(['Invalid input data']));
    expect(messages.get(503)).to.deep.equal(new Set(['Service temporarily unavailable']));
  });
});

describe('An error whose code the table does not hold (a capability answering off HTTP)', () => {
  it('is answered 500 INTERNAL, its own issues kept out of the body: the mapper never throws', async () => {
    const { mapError } = await import('../../../src/interfaces/http/shared/error-mapper.js');
    const { ApiKeyNotFound } = await import('../../../src/application/api-keys/errors.js');
    const mapped = mapError(new ApiKeyNotFound());
    expect([mapped.code, mapped.status, mapped.body]).to.deep.equal(['INTERNAL', 500, { message: ERROR_TABLE.INTERNAL.message, code: 'INTERNAL', errors: ERROR_TABLE.INTERNAL.issues }]);
  });
});
