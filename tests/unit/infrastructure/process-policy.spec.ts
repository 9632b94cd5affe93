import { expect } from 'chai';
import pino from 'pino';
import { BURST_MS, installRejectionPolicy, routeConsoleToLogger } from '../../../src/infrastructure/process-policy.js';
import { captureLogs } from '../../support/log-capture.js';

describe('the unhandled-rejection policy', () => {
  let before: NodeJS.UnhandledRejectionListener[];
  let exits: number[];
  let emit: (reason: unknown) => void;

  beforeEach(() => {
    before = process.listeners('unhandledRejection');
    exits = [];
    installRejectionPolicy(pino({ level: 'silent' }), (code) => exits.push(code));
    const added = process.listeners('unhandledRejection').filter((listener) => !before.includes(listener));
    emit = (reason) => added.forEach((listener) => listener(reason, Promise.resolve()));
  });
  afterEach(() => process.listeners('unhandledRejection').filter((l) => !before.includes(l)).forEach((l) => process.off('unhandledRejection', l)));

  it('goes on after a failed LMDB commit, which the adapter already answered with 503', () => {
    const failed = Object.assign(new Error('Commit failed (see commitError for details)'), { commitError: new Promise(() => undefined) });
    emit(failed);
    expect(exits).to.deep.equal([]);
  });

  it('exits with code 1 for anything else', () => {
    emit(new Error('something nobody expected'));
    expect(exits).to.deep.equal([1]);
  });
});

describe('store failures and console output go through the JSON log, once per burst (issue 23, finding 13)', () => {
  let before: NodeJS.UnhandledRejectionListener[];
  beforeEach(() => (before = process.listeners('unhandledRejection')));
  afterEach(() => process.listeners('unhandledRejection').filter((l) => !before.includes(l)).forEach((l) => process.off('unhandledRejection', l)));

  it('logs a failed commit with its real cause (message and code), once per burst', async () => {
    const logs = captureLogs('info');
    let clock = 0;
    installRejectionPolicy(logs.logger, () => undefined, () => clock);
    const added = process.listeners('unhandledRejection').filter((listener) => !before.includes(listener));
    const fail = () => {
      const commitError = Promise.reject(Object.assign(new Error('No space left on device'), { code: 'ENOSPC' }));
      commitError.catch(() => undefined);
      const failed = Object.assign(new Error('Commit failed (see commitError for details)'), { commitError });
      added.forEach((listener) => listener(failed, Promise.resolve()));
    };
    for (let i = 0; i < 5; i++) fail();
    await new Promise((resolve) => setTimeout(resolve, 20));
    clock = BURST_MS;
    fail();
    await new Promise((resolve) => setTimeout(resolve, 20));

    const lines = logs.parsed().filter((line) => line['msg'] === 'store commit failed (answered 503 where a request waited for it)');
    expect(lines.map((line) => [line['cause'], line['leftOut']])).to.deep.equal([
      [{ message: 'No space left on device', code: 'ENOSPC' }, 0],
      [{ message: 'No space left on device', code: 'ENOSPC' }, 4],
    ]);
  });

  it("puts a library's console.error (multi-line) on one JSON line, once per burst, and nothing raw", () => {
    const logs = captureLogs('info');
    const printed: unknown[] = [];
    const target = { error: (...args: unknown[]) => printed.push(args), warn: (...args: unknown[]) => printed.push(args) };
    let clock = 0;
    routeConsoleToLogger(logs.logger, target, () => clock);
    target.error(new Error('MDB_MAP_FULL: Environment mapsize limit reached\n    at commit'));
    for (let i = 0; i < 100; i++) target.error('Write error');
    clock = BURST_MS;
    target.warn('again');

    expect(printed).to.deep.equal([]);
    expect(logs.lines).to.have.length(2);
    const [first, second] = logs.parsed();
    expect(first).to.include({ source: 'console.error', leftOut: 0 });
    expect(String(first?.['text'])).to.include('MDB_MAP_FULL');
    expect(second).to.include({ source: 'console.warn', text: 'again', leftOut: 100 });
  });
});
