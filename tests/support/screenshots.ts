import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import type { Locator, Page } from 'playwright-core';

/** Pixels that may differ (anti-aliasing at rounded edges moves a handful between runs) before a picture counts as changed. */
const TOLERATED_PIXELS = 64;

/**
 * Writes a screenshot for the docs unless the one there already shows the same page: same size, and at most 64 of
 * its pixels differ (Chromium draws a few edge pixels differently from run to run: a line of new text is hundreds). A page that changed is written, so
 * the docs' pictures follow the pages, and a test run on an unchanged page leaves the working tree clean.
 */
export function keepScreenshot(path: string, shot: Buffer): 'written' | 'unchanged' {
  if (existsSync(path)) {
    const [before, after] = [PNG.sync.read(readFileSync(path)), PNG.sync.read(shot)];
    if (before.width === after.width && before.height === after.height) {
      let differing = 0;
      for (let at = 0; at < before.data.length; at += 4) {
        if (before.data[at] !== after.data[at] || before.data[at + 1] !== after.data[at + 1] || before.data[at + 2] !== after.data[at + 2]) differing += 1;
      }
      if (differing <= TOLERATED_PIXELS) return 'unchanged';
    }
  }
  writeFileSync(path, shot);
  return 'written';
}

/**
 * Keeps (keepScreenshot) a full-page screenshot of `page` once it has settled: the pointer off every control, no focus
 * ring, fonts loaded, two frames drawn; `mask` covers what changes from run to run (a secret, a QR code).
 */
export async function keepSettledScreenshot(page: Page, path: string, mask: Locator[] = []): Promise<'written' | 'unchanged'> {
  await page.mouse.move(0, 0);
  await page.evaluate(async () => {
    const inPage = globalThis as unknown as { document: { activeElement: { blur?: () => void } | null; fonts: { ready: Promise<unknown> } }; requestAnimationFrame(callback: () => void): void };
    inPage.document.activeElement?.blur?.();
    await inPage.document.fonts.ready;
    await new Promise<void>((done) => inPage.requestAnimationFrame(() => inPage.requestAnimationFrame(done)));
  });
  return keepScreenshot(path, await page.screenshot({ fullPage: true, animations: 'disabled', caret: 'hide', mask, maskColor: '#dddddd' }));
}
