import { existsSync } from 'node:fs';

/** Debian's Chromium (`apt-get install -y chromium`; .ci/run installs it), or CHROMIUM_PATH. */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/**
 * In a suite's `before`: skips the suite, saying why, where there is no Chromium to drive. Returns false then (the
 * caller returns too), true where the browser tests can run.
 */
export function chromiumOrSkip(context: Mocha.Context): boolean {
  if (existsSync(CHROMIUM)) return true;
  (context.test?.parent as (Mocha.Suite & { skipReason?: string }) | undefined)!.skipReason = `no Chromium at ${CHROMIUM} (apt-get install -y chromium; .ci/run installs it)`;
  context.skip();
  return false;
}
