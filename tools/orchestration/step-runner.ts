/**
 * Runs a list of step templates strictly in order (docs/architecture.md#batches, Anthropic
 * computer-use batch semantics): the first failure stops the run, every later step answers with the
 * contract text NOT_EXECUTED. Each step is a nested call through `ctx.invoke`, so the pipeline
 * gates, limits and traces it exactly like a call the agent made itself. A wall budget covers the
 * whole run; when it runs out the running step is aborted through its signal and the rest are not
 * run.
 */
import { type ToolContent, type ToolError, type ToolResult, failure, renderResult } from '../core/result';
import { type CallObserver, invokeObserved } from '../core/call-observer';
import type { Caller, Requester, ToolContext } from '../core/tool';
import {
  type ParamValue,
  type Placeholder,
  TemplateError,
  referencePath,
  renderTemplate,
  truncateHead,
} from './template';

export const NOT_EXECUTED = 'Not executed: an earlier action in this turn failed.';
export const MAX_STEPS = 16;
export const DEFAULT_BUDGET_MS = 120_000;
export const MAX_BUDGET_MS = 600_000;

export interface StepTemplate {
  tool: string;
  args?: Record<string, unknown>;
}

export type StepStatus = 'ok' | 'error' | 'not_executed';

export interface StepOutcome {
  index: number;
  tool: string;
  status: StepStatus;
  /** The rendered result the model reads (or NOT_EXECUTED). */
  text: string;
  structured?: unknown;
  error?: ToolError;
}

export interface FieldIssue {
  field: string;
  message: string;
}

/** `{n}` must name an earlier step: forward and out-of-range references are refused before anything runs. */
export function stepReferenceIssues(
  stepIndex: number,
  placeholders: readonly Placeholder[],
  stepCount: number,
): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (const p of placeholders) {
    if (p.kind !== 'step' || typeof p.ref !== 'number') continue;
    if (p.field !== undefined) {
      try {
        referencePath(p.field, p.text);
      } catch (e) {
        issues.push({ field: p.path, message: (e as Error).message });
        continue;
      }
    }
    if (p.ref >= stepCount) {
      issues.push({
        field: p.path,
        message: `{${p.ref}} is out of range: there are only ${stepCount} steps (0 to ${stepCount - 1})`,
      });
    } else if (p.ref >= stepIndex) {
      issues.push({
        field: p.path,
        message:
          `{${p.ref}} refers to step ${p.ref}, which has not run yet at step ${stepIndex}; a step may only ` +
          'use results of earlier steps',
      });
    }
  }
  return issues;
}

export interface RunStepsOptions {
  budgetMs: number;
  /** Who the nested calls say asked for them (shown to the approver, links traces to this call). */
  requester: Requester;
  params?: ReadonlyMap<string, ParamValue | undefined>;
  /** Sees each step's call (its arguments as rendered) as it starts and ends. */
  observer?: CallObserver;
}

export interface StepsReport {
  outcomes: StepOutcome[];
  results: ToolResult[];
  /** Index of the step that failed or was aborted. */
  failedAt?: number;
  /** Why the run stopped early without a step failing (budget ran out between steps). */
  stopped?: ToolError;
}

const ABORTED = Symbol('aborted');

/** Who asked for the batch or shortcut: its own caller, or for a nested one the outermost. */
function callerOf(requester: Requester): Caller {
  if (requester.via !== undefined) return requester.via;
  const { kind, id, label } = requester;
  return { kind, ...(id !== undefined ? { id } : {}), ...(label !== undefined ? { label } : {}) };
}

export async function runSteps(
  steps: readonly StepTemplate[],
  ctx: ToolContext,
  opts: RunStepsOptions,
): Promise<StepsReport> {
  const controller = new AbortController();
  let budgetSpent = false;
  const onOuterAbort = () => controller.abort(ctx.signal.reason);
  if (ctx.signal.aborted) onOuterAbort();
  else ctx.signal.addEventListener('abort', onOuterAbort, { once: true });
  const timer = setTimeout(() => {
    budgetSpent = true;
    controller.abort(new Error('batch wall budget exhausted'));
  }, opts.budgetMs);
  const aborted = new Promise<typeof ABORTED>((resolve) => {
    if (controller.signal.aborted) resolve(ABORTED);
    else controller.signal.addEventListener('abort', () => resolve(ABORTED), { once: true });
  });

  const report: StepsReport = { outcomes: [], results: [] };
  try {
    for (const [index, step] of steps.entries()) {
      if (controller.signal.aborted) {
        report.stopped = stopReason(budgetSpent, opts.budgetMs, index);
        break;
      }
      ctx.progress({
        progress: index,
        total: steps.length,
        message: `step ${index + 1}/${steps.length}: ${step.tool}`,
      });
      let args: unknown;
      try {
        args = renderTemplate(step.args ?? {}, { results: report.results, params: opts.params });
      } catch (e) {
        if (!(e instanceof TemplateError)) throw e;
        const result = referenceFailure(index, step.tool, e);
        report.results.push(result);
        report.outcomes.push(outcomeOf(index, step.tool, result));
        report.failedAt = index;
        break;
      }
      const call = invokeObserved(
        ctx,
        {
          toolId: step.tool,
          args,
          sessionId: ctx.sessionId,
          requester: { ...opts.requester, step: index + 1, via: callerOf(ctx.requester) },
          signal: controller.signal,
        },
        opts.observer,
      );
      call.catch(() => undefined); // An abandoned call must not surface as an unhandled rejection.
      const settled = await Promise.race([call, aborted]);
      const result = settled === ABORTED ? abortedStepResult(budgetSpent, opts.budgetMs, index, step.tool) : settled;
      report.results.push(result);
      report.outcomes.push(outcomeOf(index, step.tool, result));
      if (!result.ok) {
        report.failedAt = index;
        break;
      }
    }
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', onOuterAbort);
  }
  for (let index = report.outcomes.length; index < steps.length; index++) {
    report.outcomes.push({ index, tool: steps[index]?.tool ?? '', status: 'not_executed', text: NOT_EXECUTED });
  }
  return report;
}

/** A step whose reference to an earlier result names a field that result does not have: it is not run. */
function referenceFailure(index: number, tool: string, e: TemplateError): ToolResult {
  return failure('INVALID_ARGUMENT', `Step ${index} (${tool}) was not run: ${e.message}.`, {
    hint: 'Pick a field the earlier result has (its answer is above), or pass the whole result with {n}.',
    data: { placeholder: e.placeholder },
  });
}

function stopReason(budgetSpent: boolean, budgetMs: number, index: number): ToolError {
  const f = budgetSpent
    ? failure('TIMEOUT', `The wall budget of ${formatMs(budgetMs)} ran out before step ${index} started.`, {
        hint: 'Split the work into smaller batches, or give a larger budget (at most 600 s).',
      })
    : failure('EXECUTION_FAILED', `The call was cancelled before step ${index} started.`, {
        hint: 'The call was cancelled; retry only if still needed.',
      });
  return f.error;
}

function abortedStepResult(budgetSpent: boolean, budgetMs: number, index: number, tool: string): ToolResult {
  if (budgetSpent) {
    return failure(
      'TIMEOUT',
      `The wall budget of ${formatMs(budgetMs)} ran out while step ${index} (${tool}) was running; it was aborted.`,
      {
        hint: 'Split the work into smaller batches, or give a larger budget (at most 600 s).',
      },
    );
  }
  return failure(
    'EXECUTION_FAILED',
    `The call was cancelled while step ${index} (${tool}) was running; it was aborted.`,
    {
      hint: 'The call was cancelled; retry only if still needed.',
    },
  );
}

function outcomeOf(index: number, tool: string, result: ToolResult): StepOutcome {
  if (!result.ok) return { index, tool, status: 'error', text: renderResult(result), error: result.error };
  const outcome: StepOutcome = { index, tool, status: 'ok', text: renderResult(result) };
  if (result.structured !== undefined) outcome.structured = result.structured;
  return outcome;
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/**
 * The result of a whole run: on success every step's header and content (images kept); on a
 * failure the failing step's code and hint, with every step's outcome in the message (each
 * head-truncated) and in full in `data.steps`.
 */
export function stepsResult(report: StepsReport, label: string): ToolResult {
  const steps = report.outcomes.map((o) => ({ ...o }));
  const failed = report.failedAt === undefined ? undefined : report.outcomes[report.failedAt];
  const stopError = failed?.error ?? report.stopped;
  if (!stopError) {
    const content: ToolContent[] = report.results.flatMap((r, i) => [
      { type: 'text' as const, text: `[${i}] ${report.outcomes[i]?.tool}: ok` },
      ...(r.ok ? r.content : []),
    ]);
    return { ok: true, content, structured: { ok: true, steps } };
  }
  const total = report.outcomes.length;
  const headline = failed
    ? `Step ${failed.index} of ${total} (${failed.tool}) failed, so the ${label} stopped.`
    : `The ${label} stopped: ${stopError.message}`;
  // The failed step's code and message only: its hint is the whole answer's, said once at the end.
  const lines = report.outcomes.map((o) => {
    if (o.status === 'ok') return `[${o.index}] ${o.tool}: ok\n${indent(truncateHead(o.text))}`;
    if (o.error) return `[${o.index}] ${o.tool}: Error: ${o.error.code}: ${o.error.message}`;
    return `[${o.index}] ${o.tool}: ${o.text}`;
  });
  return failure(stopError.code, `${headline}\n${lines.join('\n')}`, {
    hint: stopError.hint,
    data: { steps, ...(failed ? { failedStep: failed.index } : {}) },
  });
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
}
