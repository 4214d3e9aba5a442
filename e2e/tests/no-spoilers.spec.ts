import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, Page, test } from '@playwright/test';
import { PHONE, visit, watchErrors } from './helpers';

// The rule the lessons teach by: while a question is open, nothing on screen states its answer. Every
// question of every shipped lesson is opened by its link, as a learner reaching it would see it, and the
// page outside the lesson panel is read: no verdict badge but the neutral one, no failure listed under
// Invariants, no step marked as failing, no "allowed" note.

const LESSONS = join(__dirname, '../../crates/epochlab-core/lessons');
const NEUTRAL = "The outcome shows once the lesson's question about it is answered.";

/** Every question of every shipped lesson: the lesson's id and the question's step (1-based, as links count). */
function questions(): { id: string; step: number }[] {
  const index = JSON.parse(readFileSync(join(LESSONS, 'index.json'), 'utf8'));
  return index.lessons.flatMap((entry: { id: string; file: string }) => {
    const lesson = JSON.parse(readFileSync(join(LESSONS, entry.file), 'utf8'));
    return lesson.steps.flatMap((s: object, i: number) => ('predict' in s ? [{ id: entry.id, step: i + 1 }] : []));
  });
}

async function expectNoVerdict(page: Page, where: string) {
  await expect(page.getByTestId('lesson-counter'), where).toBeVisible({ timeout: 15_000 });
  await expect(page.locator('[data-testid^="verdict-"]').first(), where).toHaveText(NEUTRAL);
  for (const verdict of await page.locator('[data-testid^="verdict-"]').allTextContents()) expect(verdict, where).toBe(NEUTRAL);
  await expect(page.locator('[data-testid^="verdict-"][title]'), `${where}: a badge's tooltip names invariants`).toHaveCount(0);
  await expect(page.locator('.timeline__step--bug'), `${where}: a step marked as failing`).toHaveCount(0);
  await expect(page.locator('.verdict--allowed'), `${where}: an allowed-failure note`).toHaveCount(0);
  for (const invariants of await page.locator('.invariants').allTextContents()) {
    expect(invariants, `${where}: the Invariants panel`).not.toMatch(/\bBUG\b|\ballowed\b/i);
  }
}

for (const [name, options] of [['on a desktop', {}], ['on a 375 px phone', PHONE]] as const) {
  test.describe(name, () => {
    test.use(options);
    test('no question of any shipped lesson is asked with a verdict on screen', async ({ page }) => {
      const all = questions();
      test.setTimeout(all.length * 8_000);
      expect(all.length, 'every shipped question').toBeGreaterThan(30);
      const errors = watchErrors(page);
      for (const { id, step } of all) {
        await visit(page, `#lesson=${id}&step=${step}`);
        await expectNoVerdict(page, `${id} step ${step}`);
      }
      errors.check();
    });
  });
}
