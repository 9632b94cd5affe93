import axe from 'axe-core';
import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';

/** The page's side, as far as the audits reach into it (the tests compile without the DOM library). */
interface InPage {
  document: { activeElement: unknown };
  axe: typeof axe;
}

/** axe-core's audit of the page: its serious and critical violations, one line each (rule, impact, what, where); the rules that passed. */
export const axeAudit = async (page: Page): Promise<{ violations: string[]; passed: string[] }> => {
  await page.addScriptTag({ content: axe.source });
  const results = await page.evaluate(() => (globalThis as unknown as InPage).axe.run((globalThis as unknown as InPage).document as never, { resultTypes: ['violations'] }));
  return {
    violations: results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`),
    passed: results.passes.map((rule) => rule.id),
  };
};

/** The serious and critical axe-core violations of the page, one line each (rule, impact, what, where). */
export const axeViolations = async (page: Page): Promise<string[]> => (await axeAudit(page)).violations;

/** Presses Tab until `target` has the focus (at most `presses` times): the keyboard reaches it in the page's order. */
export const tabTo = async (page: Page, target: Locator, presses = 12): Promise<void> => {
  for (let pressed = 0; pressed < presses; pressed += 1) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === (globalThis as unknown as InPage).document.activeElement)) return;
  }
  expect.fail(`${String(target)}: not reached by ${presses} presses of Tab`);
};
