'use strict';
/**
 * Mocha reporter: the usual Spec output, then
 *   - a "skipped:" section listing every pending test by full title with its reason,
 *   - as the very last line: `tests: N passed, N failed, N skipped`.
 *
 * Skip reasons: set a string property `skipReason` on the test or on any ancestor suite
 * before calling `this.skip()`. The nearest one wins.
 *
 *   // whole suite, from a before() hook (`this.test` is the hook, its parent is the suite):
 *   before(function () {
 *     if (!mongoUrl) { this.test.parent.skipReason = 'no MongoDB: set MONGO_URL'; this.skip(); }
 *   });
 *   // one test, from inside it():
 *   it('...', function () { this.test.skipReason = 'not on win32'; this.skip(); });
 *   // one test, from a beforeEach() hook:
 *   beforeEach(function () { this.currentTest.skipReason = '...'; this.skip(); });
 *
 * Setting `this.test.skipReason` inside a before()/beforeEach() hook (i.e. on the hook) also
 * works: the reporter hands it to the hook's suite (before all) or current test (before each).
 *
 * Counts: passed = stats.passes, failed = stats.failures (includes failed hooks),
 * skipped = stats.pending. Mocha's exit code is unaffected (non-zero when anything failed).
 */
const Mocha = require('mocha');

const { Spec, Base } = Mocha.reporters;
const {
  EVENT_HOOK_END,
  EVENT_TEST_PENDING,
} = Mocha.Runner.constants;

const NO_REASON = 'no reason given';

function reasonOf(runnable) {
  for (let node = runnable; node; node = node.parent) {
    if (typeof node.skipReason === 'string' && node.skipReason.trim() !== '') {
      return node.skipReason.trim();
    }
  }
  return undefined;
}

class SummaryReporter extends Spec {
  static description = 'spec output + skipped-test reasons + a final "tests: N passed, N failed, N skipped" line';

  constructor(runner, options) {
    super(runner, options);
    /** @type {{ title: string, reason: string }[]} */
    this.skipped = [];

    // A reason set on a hook object (`this.test.skipReason` inside a hook) is moved to where it belongs.
    runner.on(EVENT_HOOK_END, (hook) => {
      if (typeof hook.skipReason !== 'string') return;
      const title = String(hook.originalTitle || hook.title || '');
      if (title.startsWith('"before each" hook')) {
        const current = hook.ctx && hook.ctx.currentTest;
        if (current && current.skipReason === undefined) current.skipReason = hook.skipReason;
      } else if (hook.parent && hook.parent.skipReason === undefined) {
        hook.parent.skipReason = hook.skipReason;
      }
    });

    runner.on(EVENT_TEST_PENDING, (test) => {
      this.skipped.push({ title: test.fullTitle(), reason: reasonOf(test) ?? NO_REASON });
    });
  }

  epilogue() {
    super.epilogue();

    if (this.skipped.length > 0) {
      Base.consoleLog('skipped:');
      for (const { title, reason } of this.skipped) {
        Base.consoleLog(Base.color('pending', '  - %s: %s'), title, reason);
      }
      Base.consoleLog();
    }

    const stats = this.stats || {};
    // Plain text (no colour codes) so scripts can grep it; always the last line.
    Base.consoleLog(
      'tests: %d passed, %d failed, %d skipped',
      stats.passes || 0,
      stats.failures || 0,
      stats.pending || 0,
    );
  }
}

module.exports = SummaryReporter;
