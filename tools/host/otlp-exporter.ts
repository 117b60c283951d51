/**
 * Exports trace spans to an OpenTelemetry collector (OTLP/HTTP, JSON encoding) so a lab of many
 * hosts can look at its tool calls in Jaeger, Tempo… Spans follow the GenAI semantic conventions:
 * name `execute_tool {gen_ai.tool.name}`, `gen_ai.operation.name = execute_tool`. Only what the
 * span already holds is sent (the args digest and the cleaned error text, never arguments).
 * Sending is batched, bounded and best-effort: a collector that is down costs dropped spans and a
 * log line, never a stuck call.
 */
import { createHash } from 'node:crypto';
import type { TraceSpan } from '../core/trace-span';

export interface OtlpExporterOptions {
  /** Base URL of the collector, e.g. http://127.0.0.1:4318; undefined turns export off. */
  endpoint: () => string | undefined;
  serviceVersion: string;
  log: (line: string) => void;
  flushIntervalMs?: number;
  maxBatch?: number;
  maxQueued?: number;
  fetchImpl?: typeof fetch;
}

type AnyValue = { stringValue: string } | { intValue: string } | { doubleValue: number } | { boolValue: boolean };
interface KeyValue {
  key: string;
  value: AnyValue;
}

const hex = (text: string, bytes: number) =>
  createHash('sha256')
    .update(text)
    .digest('hex')
    .slice(0, bytes * 2);
const str = (key: string, v: string): KeyValue => ({ key, value: { stringValue: v } });
const int = (key: string, v: number): KeyValue => ({ key, value: { intValue: String(Math.round(v)) } });
const nanos = (ms: number) => (BigInt(Math.round(ms * 1000)) * 1000n).toString();

/** One span in OTLP JSON form. A nested call joins the trace of the call that started it. */
export function toOtlpSpan(span: TraceSpan): Record<string, unknown> {
  const attributes: KeyValue[] = [
    str('gen_ai.operation.name', 'execute_tool'),
    str('gen_ai.tool.name', span.toolId),
    str('gen_ai.tool.call.id', span.callId),
    int('toolgate.attempt', span.attempt),
    str('toolgate.outcome', span.outcome),
    str('toolgate.session.id', span.sessionId),
    str('toolgate.requester.kind', span.requesterKind),
    int('toolgate.backoff_ms', span.backoffMs),
    int('toolgate.args.total_length', span.argsDigest.totalLength),
  ];
  if (span.errorCode) attributes.push(str('error.type', span.errorCode));
  if (span.errorSlug) attributes.push(str('toolgate.error_slug', span.errorSlug));
  // Who decided a refusal (a person, nobody in time, a rule…): structured, never argument text.
  if (span.decidedBy) attributes.push(str('toolgate.decided_by', span.decidedBy));
  if (span.errorText) attributes.push(str('toolgate.error_text', span.errorText));
  const out: Record<string, unknown> = {
    traceId: hex(span.parentCallId ?? span.callId, 16),
    spanId: hex(span.spanId, 8),
    name: `execute_tool ${span.toolId}`,
    kind: 1,
    startTimeUnixNano: nanos(span.startedAt),
    endTimeUnixNano: nanos(span.startedAt + span.durationMs),
    attributes,
    status: span.outcome === 'success' ? { code: 1 } : { code: 2, message: span.errorCode ?? span.outcome },
  };
  // Which attempt of the parent ran this call is not recorded, so the link is the shared trace id
  // and an attribute rather than a parentSpanId that could point at the wrong attempt.
  if (span.parentCallId) attributes.push(str('toolgate.parent_call_id', span.parentCallId));
  return out;
}

export class OtlpExporter {
  private queue: TraceSpan[] = [];
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private dropped = 0;

  constructor(private readonly options: OtlpExporterOptions) {}

  add(span: TraceSpan): void {
    if (!this.options.endpoint()) return;
    this.queue.push(span);
    const max = this.options.maxQueued ?? 4096;
    if (this.queue.length > max) {
      this.dropped += this.queue.length - max;
      this.queue.splice(0, this.queue.length - max);
    }
    if (this.queue.length >= (this.options.maxBatch ?? 256)) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.options.flushIntervalMs ?? 1000);
      this.timer.unref();
    }
  }

  /** Sends what is queued; resolves when the collector answered (or failed). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.inFlight;
    const endpoint = this.options.endpoint();
    if (!endpoint || this.queue.length === 0) return;
    const batch = this.queue.splice(0, this.options.maxBatch ?? 256);
    this.inFlight = this.send(endpoint, batch);
    await this.inFlight;
    this.inFlight = undefined;
    if (this.queue.length > 0) void this.flush();
  }

  private async send(endpoint: string, spans: TraceSpan[]): Promise<void> {
    const body = {
      resourceSpans: [
        {
          resource: {
            attributes: [str('service.name', 'toolgate'), str('service.version', this.options.serviceVersion)],
          },
          scopeSpans: [
            { scope: { name: 'toolgate', version: this.options.serviceVersion }, spans: spans.map(toOtlpSpan) },
          ],
        },
      ],
    };
    const url = `${endpoint.replace(/\/+$/, '')}/v1/traces`;
    try {
      const res = await (this.options.fetchImpl ?? fetch)(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(5000),
      });
      if (!res.ok)
        this.options.log(`OTLP export to ${url} failed: HTTP ${res.status}; ${spans.length} span(s) dropped`);
    } catch (e) {
      this.options.log(`OTLP export to ${url} failed: ${(e as Error).message}; ${spans.length} span(s) dropped`);
    }
    if (this.dropped > 0) {
      this.options.log(`OTLP queue was full: ${this.dropped} span(s) dropped`);
      this.dropped = 0;
    }
  }

  async close(): Promise<void> {
    await this.flush();
  }
}
