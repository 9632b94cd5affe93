import { expect } from 'chai';
import { redisFailure, redisTarget } from '../../../src/infrastructure/rate-limit/redis-failure.js';

describe("a Redis failure as the log tells it: the cause, where, never the URL's password (issue 63)", () => {
  const url = 'redis://default:p%40ss-word-secret@cache.internal:6380/2';

  it('names where by scheme, host and port only', () => {
    expect(redisTarget(url)).to.equal('redis://cache.internal:6380');
    expect(redisTarget('rediss://:secret@cache.internal')).to.equal('rediss://cache.internal:6379');
    expect(redisTarget('not a url')).to.equal('an unparsable REDIS_URL');
  });

  it("keeps the driver's message and code", () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6399'), { code: 'ECONNREFUSED' });
    expect(redisFailure(refused, url)).to.deep.equal({ cause: 'connect ECONNREFUSED 127.0.0.1:6399', code: 'ECONNREFUSED' });
    expect(redisFailure(new Error('WRONGPASS invalid username-password pair or user is disabled.'), url)).to.deep.equal({
      cause: 'WRONGPASS invalid username-password pair or user is disabled.',
    });
  });

  it('tells an error without a message by its parts (several addresses tried), else by its code', () => {
    const both = Object.assign(new AggregateError([new Error('connect ECONNREFUSED ::1:6399'), new Error('connect ECONNREFUSED 127.0.0.1:6399')], ''), { code: 'ECONNREFUSED' });
    expect(redisFailure(both, url)).to.deep.equal({ cause: 'connect ECONNREFUSED ::1:6399; connect ECONNREFUSED 127.0.0.1:6399', code: 'ECONNREFUSED' });
    expect(redisFailure(Object.assign(new Error(''), { code: 'ECONNRESET' }), url)).to.deep.equal({ cause: 'ECONNRESET', code: 'ECONNRESET' });
    expect(redisFailure('a string', url)).to.deep.equal({ cause: 'a string' });
  });

  it('masks the password, as written in the URL and decoded, should a message quote it', () => {
    const quoted = new Error('AUTH p@ss-word-secret failed; raw p%40ss-word-secret');
    expect(redisFailure(quoted, url).cause).to.equal('AUTH [redacted] failed; raw [redacted]');
  });
});
