import { expect } from 'chai';
import { Writable } from 'node:stream';
import { loadConfig } from '../../../src/infrastructure/config/config.js';
import { createLogger, writesPretty } from '../../../src/infrastructure/logging/logger.js';

/** The service's logger writing into memory, in `format`. */
function linesOf(format: 'auto' | 'json' | 'pretty', log: (logger: ReturnType<typeof createLogger>) => void): string[] {
  let text = '';
  const sink = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  log(createLogger('info', sink, format));
  return text.split('\n').filter((line) => line.length > 0);
}

describe('Logs a person can read in a terminal (LOG_FORMAT)', () => {
  it('writes pretty lines for `pretty`, and for `auto` only on a terminal; JSON otherwise', () => {
    expect(['auto', 'json', 'pretty'].map((format) => writesPretty(format as 'auto', true))).to.deep.equal([true, false, true]);
    expect(['auto', 'json', 'pretty'].map((format) => writesPretty(format as 'auto', false))).to.deep.equal([false, false, true]);
    expect(loadConfig({}).logFormat).to.equal('auto');
    expect(() => loadConfig({ LOG_FORMAT: 'yaml' })).to.throw(/LOG_FORMAT/);
  });

  it('a pretty line is one readable line with the level and message, and still redacts secrets', () => {
    const lines = linesOf('pretty', (logger) => logger.info({ password: 'hunter2 correct horse', userId: 'u-1' }, 'signed in'));
    expect(lines[0]).to.match(/INFO.*signed in/);
    expect(() => JSON.parse(lines[0] ?? '') as unknown).to.throw();
    expect(lines.join('\n')).to.include('u-1').and.not.include('hunter2');
  });

  it('a JSON line is one JSON object, redacted the same way', () => {
    const lines = linesOf('json', (logger) => logger.info({ password: 'hunter2 correct horse' }, 'signed in'));
    expect(lines).to.have.length(1);
    expect(JSON.parse(lines[0] ?? '{}')).to.deep.include({ msg: 'signed in', password: '[redacted]' });
  });
});
