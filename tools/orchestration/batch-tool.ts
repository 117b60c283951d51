/**
 * tool_batch_run (docs/architecture.md#batches): several tool calls in one model turn, run strictly
 * in order and stopped at the first error. Everything that can be checked without running is
 * checked first — shape, step count, nested batches, `{n}` references — so a bad batch calls no
 * tool at all.
 */
import { z } from 'zod';
import { ARGUMENTS } from '../core/fields';
import { type ToolFailure, failure } from '../core/result';
import { formatPath } from '../core/schema';
import { type Tool, type ToolContext, defineTool } from '../core/tool';
import type { CallObserver } from '../core/call-observer';
import {
  DEFAULT_BUDGET_MS,
  type FieldIssue,
  MAX_BUDGET_MS,
  MAX_STEPS,
  type StepTemplate,
  runSteps,
  stepReferenceIssues,
  stepsResult,
} from './step-runner';
import { findPlaceholders } from './template';

export const BATCH_TOOL_ID = 'tool_batch_run';

const stepSchema = z.object({
  tool: z.string().min(1).describe('e.g. "app_launch".'),
  args: ARGUMENTS.optional(),
});
const stepsSchema = z.array(stepSchema);

const input = z.object({
  steps: z.union([stepsSchema, z.string()]).describe('[{tool, args}], or that array as JSON text.'),
  budgetMs: z.number().int().min(1).max(MAX_BUDGET_MS).optional().describe('For the whole batch; 120000 if omitted.'),
  budgetSeconds: z
    .number()
    .gt(0)
    .max(MAX_BUDGET_MS / 1000)
    .optional()
    .describe('Or budgetMs.'),
});

function invalid(issues: FieldIssue[]): ToolFailure {
  return failure(
    'INVALID_ARGUMENT',
    `Invalid batch: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}. No step was run.`,
    {
      data: { fields: issues.map((i) => i.field), issues },
    },
  );
}

/** Steps as given (inline or JSON text) → checked templates, or the issues that refuse the batch. */
export function parseBatchSteps(
  steps: unknown,
): { ok: true; steps: StepTemplate[] } | { ok: false; issues: FieldIssue[] } {
  let raw = steps;
  if (typeof raw === 'string') {
    try {
      raw = JSON.parse(raw);
    } catch (e) {
      return {
        ok: false,
        issues: [
          {
            field: 'steps',
            message: `a string must hold a JSON array of {tool, args}, but it does not parse (${(e as Error).message})`,
          },
        ],
      };
    }
  }
  const parsed = stepsSchema.safeParse(raw);
  if (!parsed.success) {
    return {
      ok: false,
      issues: parsed.error.issues.map((i) => ({ field: formatPath(['steps', ...i.path]), message: i.message })),
    };
  }
  const list = parsed.data;
  if (list.length === 0) return { ok: false, issues: [{ field: 'steps', message: 'give at least one step' }] };
  if (list.length > MAX_STEPS)
    return {
      ok: false,
      issues: [
        {
          field: 'steps',
          message: `at most ${MAX_STEPS} steps per batch, got ${list.length}; split it into several batches`,
        },
      ],
    };
  const issues: FieldIssue[] = [];
  for (const [i, step] of list.entries()) {
    if (step.tool === BATCH_TOOL_ID)
      issues.push({
        field: `steps[${i}].tool`,
        message: 'a batch cannot contain another batch; put its steps in this one',
      });
    issues.push(...stepReferenceIssues(i, findPlaceholders(step.args ?? {}, `steps[${i}].args`), list.length));
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, steps: list };
}

export function batchTool(deps: { observer?: CallObserver } = {}): Tool<z.infer<typeof input>> {
  const tool = defineTool({
    id: BATCH_TOOL_ID,
    title: 'Run tools in a batch',
    description:
      `Runs up to ${MAX_STEPS} tool calls in one turn, stopping at the first error. An argument "{n}" is the result ` +
      'of step n (0-based), "{n.path}" one field of it ("{0.data.items[2].id}"), also inside a text.',
    input,
    metadata: { category: 'orchestration', risk: 'MEDIUM' },
    // The envelope changes nothing itself: every step is gated on its own with its real risk, so
    // marking the batch destructive would only ask the person twice. Steps may reach devices and the web.
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
      sensitiveAction: false,
    },
    selfGated: true,
    // The batch enforces its own wall budget (up to 600 s); a per-preset timeout would cut it short.
    runPolicy: 'selfBounded',
    async run(args, ctx: ToolContext) {
      if (ctx.requester.kind === 'batch' || ctx.requester.kind === 'shortcut') {
        return failure('UNSUPPORTED', 'A batch cannot run inside another batch or a shortcut.', {
          hint: 'Put these steps directly in the outer batch.',
        });
      }
      if (args.budgetMs !== undefined && args.budgetSeconds !== undefined) {
        return invalid([{ field: 'budgetSeconds', message: 'give budgetMs or budgetSeconds, not both' }]);
      }
      const parsed = parseBatchSteps(args.steps);
      if (!parsed.ok) return invalid(parsed.issues);
      const budgetMs =
        args.budgetMs ?? (args.budgetSeconds !== undefined ? Math.ceil(args.budgetSeconds * 1000) : DEFAULT_BUDGET_MS);
      const report = await runSteps(parsed.steps, ctx, {
        budgetMs,
        requester: { kind: 'batch', id: ctx.callId, label: BATCH_TOOL_ID },
        ...(deps.observer ? { observer: deps.observer } : {}),
      });
      return stepsResult(report, 'batch');
    },
  });
  // zod reports a failed union as one vague "steps: Invalid input"; for an inline array, the
  // step checks give the field of each bad step instead.
  return {
    ...tool,
    validate(args) {
      const checked = tool.validate(args);
      const steps = (args as { steps?: unknown } | undefined)?.steps;
      if (checked.ok || !Array.isArray(steps)) return checked;
      const parsed = parseBatchSteps(steps);
      if (parsed.ok) return checked;
      const others = ((checked.error.data?.fields as string[] | undefined) ?? []).filter((f) => f !== 'steps');
      return invalid([...parsed.issues, ...others.map((field) => ({ field, message: 'invalid value' }))]);
    },
  };
}
