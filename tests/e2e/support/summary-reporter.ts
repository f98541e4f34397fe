// A short, line-oriented summary printed after the `list` reporter: one `E2E <status> <file> › <title>`
// line per test (easy to grep or count) and a final `E2E TOTAL` line with the counts and duration.
import type { FullResult, Reporter, TestCase, TestResult } from "@playwright/test/reporter";
import path from "node:path";

export default class SummaryReporter implements Reporter {
  private lines: string[] = [];
  private counts = { passed: 0, failed: 0, skipped: 0, expectedFailures: 0, flaky: 0 };

  printsToStdio(): boolean {
    return true;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    // Only the final attempt counts.
    if (result.retry < test.retries && result.status !== "passed" && result.status !== "skipped") return;
    const outcome = test.outcome();
    const file = path.basename(test.location.file);
    const title = test.titlePath().slice(3).join(" › ");
    let status: string;
    if (outcome === "skipped") {
      status = "SKIPPED";
      this.counts.skipped++;
    } else if (outcome === "unexpected") {
      status = "FAILED";
      this.counts.failed++;
    } else if (outcome === "flaky") {
      status = "FLAKY";
      this.counts.flaky++;
    } else if (test.expectedStatus === "failed") {
      status = "KNOWN-BUG";
      this.counts.expectedFailures++;
    } else {
      status = "PASSED";
      this.counts.passed++;
    }
    this.lines.push(`E2E ${status} ${file} › ${title} (${(result.duration / 1000).toFixed(1)} s)`);
  }

  onEnd(result: FullResult): void {
    const total = Object.values(this.counts).reduce((a, b) => a + b, 0);
    const c = this.counts;
    console.log("");
    for (const line of this.lines) console.log(line);
    console.log(
      `E2E TOTAL ${total} tests: ${c.passed} passed, ${c.expectedFailures} known bugs (test.fail), ` +
        `${c.failed} failed, ${c.flaky} flaky, ${c.skipped} skipped — ${result.status} in ${
          (result.duration / 1000).toFixed(1)
        } s`,
    );
  }
}
