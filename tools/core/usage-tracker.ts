/**
 * ToolUsageTracker (docs/architecture.md#traces): per tool, how often, how well, how fast, and the
 * last error. Latency percentiles come from a bounded window of recent samples so memory stays flat
 * however many calls are made.
 */
import type { ToolError, ToolErrorCode } from './result';

const WINDOW = 1024;

export interface ToolUsageStats {
  toolId: string;
  count: number;
  successes: number;
  failures: number;
  latencyMs: { min: number; mean: number; p50: number; p95: number; max: number };
  lastError: { code: ToolErrorCode; message: string; at: number } | undefined;
  lastCalledAt: number;
}

class ToolUsage {
  count = 0;
  successes = 0;
  failures = 0;
  totalMs = 0;
  min = Infinity;
  max = 0;
  lastError: ToolUsageStats['lastError'];
  lastCalledAt = 0;
  private readonly window = new Float64Array(WINDOW);
  private filled = 0;
  private next = 0;

  record(durationMs: number, error: ToolError | undefined, at: number): void {
    this.count++;
    if (error) {
      this.failures++;
      this.lastError = { code: error.code, message: error.message, at };
    } else {
      this.successes++;
    }
    this.totalMs += durationMs;
    if (durationMs < this.min) this.min = durationMs;
    if (durationMs > this.max) this.max = durationMs;
    this.lastCalledAt = at;
    this.window[this.next] = durationMs;
    this.next = (this.next + 1) % WINDOW;
    if (this.filled < WINDOW) this.filled++;
  }

  percentile(sorted: Float64Array, p: number): number {
    if (sorted.length === 0) return 0;
    const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
    return sorted[rank] ?? 0;
  }

  snapshot(toolId: string): ToolUsageStats {
    const sorted = this.window.slice(0, this.filled).sort();
    return {
      toolId,
      count: this.count,
      successes: this.successes,
      failures: this.failures,
      latencyMs: {
        min: this.count ? this.min : 0,
        mean: this.count ? this.totalMs / this.count : 0,
        p50: this.percentile(sorted, 50),
        p95: this.percentile(sorted, 95),
        max: this.max,
      },
      lastError: this.lastError,
      lastCalledAt: this.lastCalledAt,
    };
  }
}

export class ToolUsageTracker {
  private readonly usage = new Map<string, ToolUsage>();

  constructor(private readonly now: () => number = Date.now) {}

  record(toolId: string, durationMs: number, error?: ToolError): void {
    let u = this.usage.get(toolId);
    if (!u) {
      u = new ToolUsage();
      this.usage.set(toolId, u);
    }
    u.record(durationMs, error, this.now());
  }

  stats(toolId: string): ToolUsageStats | undefined {
    return this.usage.get(toolId)?.snapshot(toolId);
  }

  all(): ToolUsageStats[] {
    return [...this.usage.entries()].map(([id, u]) => u.snapshot(id)).sort((a, b) => a.toolId.localeCompare(b.toolId));
  }
}
