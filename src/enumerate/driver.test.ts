import { describe, expect, it } from 'vitest';
import { noRaceStats, VariantDriver, type VariantStep } from './driver.ts';

/** A search whose every node costs `ms` of CPU and which never ends on its own. */
class Slow extends VariantDriver<VariantStep & { finished: boolean }> {
  nodes = 0;
  advances = 0;
  constructor(
    private readonly ms: number,
    timeoutMs: number,
  ) {
    super(
      [],
      { maxExecutions: Number.POSITIVE_INFINITY, timeoutMs, maxStates: 10, keepExamples: false },
      1,
      noRaceStats(),
    );
  }
  protected start(): { finished: boolean } {
    return { finished: false };
  }
  protected advance(_s: { finished: boolean }, budget: number): number {
    this.advances++;
    for (let k = 0; k < budget; k++) {
      const until = performance.now() + this.ms;
      while (performance.now() < until);
      this.nodes++;
    }
    return budget;
  }
}

describe('VariantDriver', () => {
  it('looks at the budgets more often when nodes are slow: --timeout holds on nodes of milliseconds', () => {
    // 4,096 nodes of 20 ms between two looks at the clock would run 82 s past a 200 ms timeout.
    const t0 = performance.now();
    const s = new Slow(20, 200).run();
    expect(s.stop).toBe('timeout');
    expect(performance.now() - t0).toBeLessThan(2000);
    // After the first advance the pace is about one node per look.
    expect(s.nodes).toBeLessThan(16 + 2 * s.advances);
  });

  it('keeps large advances for fast nodes', () => {
    const s = new Slow(0, 300).run();
    expect(s.stop).toBe('timeout');
    expect(s.nodes / s.advances).toBeGreaterThan(1000);
  });
});
