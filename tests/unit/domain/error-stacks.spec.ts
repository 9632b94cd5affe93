import { expect } from 'chai';
import { InvalidToken, ServiceUnavailable } from '../../../src/application/errors.js';
import { InvalidCredentials, InvalidInput } from '../../../src/domain/domain-error.js';
import { HttpError } from '../../../src/interfaces/http/shared/error-mapper.js';

const framesOf = (error: Error): string[] => (error.stack ?? '').split('\n').slice(1);

/**
 * An error that is an answer to the client (a 4xx) captures no stack trace: capturing one was most of what a 400 cost
 * the event loop. A failure of the service itself (a store error wrapped with its cause) keeps its stack for the log.
 */
describe('error answers and their stacks', () => {
  it('a domain error, an application error without a cause and a transport error carry no stack frames', () => {
    expect(framesOf(new InvalidInput([{ field: 'email', code: 'REQUIRED', message: 'is required' }]))).to.deep.equal([]);
    expect(framesOf(new InvalidCredentials())).to.deep.equal([]);
    expect(framesOf(new InvalidToken())).to.deep.equal([]);
    expect(framesOf(new HttpError('MISSING_TOKEN'))).to.deep.equal([]);
    expect(new InvalidInput([]).stack).to.equal('InvalidInput: Invalid input data');
  });

  it('a failure wrapping its cause keeps its stack, and every other error keeps its own', () => {
    expect(framesOf(new ServiceUnavailable('store_unavailable', 1, new Error('ENOSPC')))).to.not.deep.equal([]);
    const limit = Error.stackTraceLimit;
    void new InvalidInput([]);
    void new InvalidToken();
    expect(Error.stackTraceLimit).to.equal(limit);
    expect(framesOf(new Error('a fault'))).to.not.deep.equal([]);
  });
});
