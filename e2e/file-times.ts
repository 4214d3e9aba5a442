import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import * as path from 'path';

// Prints, once the run ends, each spec file's time and every test that took more than half of its timeout:
// on a slower CI machine such a test is the next one to fail (issue 24). Measured and printed, never asserted.

type Slow = { title: string; ms: number; timeout: number };

const HALF = 0.5;

class FileTimes implements Reporter {
  private files = new Map<string, { ms: number; tests: number }>();
  private slow: Slow[] = [];

  onTestEnd(test: TestCase, result: TestResult) {
    const file = path.basename(test.location.file);
    const entry = this.files.get(file) ?? { ms: 0, tests: 0 };
    entry.ms += result.duration;
    entry.tests += 1;
    this.files.set(file, entry);
    if (test.timeout > 0 && result.duration > test.timeout * HALF) {
      this.slow.push({ title: `${file} › ${test.titlePath().slice(2).join(' › ')}`, ms: result.duration, timeout: test.timeout });
    }
  }

  onEnd(_result: FullResult) {
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const rows = [...this.files.entries()].sort((a, b) => b[1].ms - a[1].ms);
    console.log('\nTime per spec file (slowest first):');
    for (const [file, { ms, tests }] of rows) console.log(`  ${seconds(ms).padStart(8)}  ${file} (${tests} tests)`);
    const total = rows.reduce((sum, [, { ms }]) => sum + ms, 0);
    console.log(`  ${seconds(total).padStart(8)}  in all`);
    if (this.slow.length === 0) {
      console.log('No test took more than half of its timeout.');
      return;
    }
    console.log('Tests that took more than half of their timeout (the next to fail on a slower machine):');
    for (const s of this.slow) console.log(`  ${seconds(s.ms)} of ${seconds(s.timeout)}: ${s.title}`);
  }

  printsToStdio() {
    return false;
  }
}

export default FileTimes;
