import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

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

/** Headless, no sandbox (CI runs as root), nothing of Chromium's own on the network: no updates, no sync, no proxy. */
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-proxy-server'];

/** Debian's Chromium, driven by playwright-core, with CHROMIUM_FLAGS and any `extra` ones. */
export const launchChromium = (extra: readonly string[] = []): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_FLAGS, ...extra] });
