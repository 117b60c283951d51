/**
 * Turns a skill's declared tools into registry tools `skill.<skill>.<tool>`.
 *
 * Steps tools are compiled by the orchestration family as shortcuts are: risk is the worst step's,
 * hints derive from the steps', and each step goes through the pipeline on its own (so the tool is
 * self-gated, like a shortcut). Script tools run only through a sandbox runner the host provides
 * (the terminal family's); with none, the tool says so with UNSUPPORTED and runs nothing. Such a
 * tool is then self-gated too: there is nothing to approve, since nothing will run.
 */
import type { ToolRegistry } from '../core/registry';
import { ToolCallError, failure, success } from '../core/result';
import { type Tool, defineTool } from '../core/tool';
import { type TelemetryReader, compileShortcut, paramsInput } from '../orchestration';
import type { SkillToolDeclaration } from './skill-tool-declaration';
import { skillToolId } from './skill-name';

export interface SkillScriptRequest {
  /** The installed skill's folder (read-only to the script). */
  skillDir: string;
  /** Relative to the skill folder, under scripts/. */
  script: string;
  args: Record<string, unknown>;
  timeoutMs: number;
  signal: AbortSignal;
}

/** Runs a skill's script inside a sandbox; the terminal family implements it. */
export interface SkillScriptRunner {
  /** Named in results, e.g. "terminal sandbox (bubblewrap)". */
  readonly name: string;
  run(request: SkillScriptRequest): Promise<{ exitCode: number; stdout: string; stderr: string }>;
}

export interface SkillToolContext {
  registry: ToolRegistry;
  telemetry?: TelemetryReader;
  scripts?: SkillScriptRunner;
  skillDir: string;
}

export const NO_SANDBOX =
  "This tool runs a script of the skill, and scripts run only in Toolgate's terminal sandbox, which this host does " +
  'not have (the terminal family is not installed). Toolgate ' +
  "never runs a skill's script on the host; nothing was run.";

export function compileSkillTool(skill: string, decl: SkillToolDeclaration, ctx: SkillToolContext): Tool {
  const id = skillToolId(skill, decl.name);
  if (decl.steps) {
    const tool = compileShortcut(
      {
        id,
        description: `${decl.description} (skill ${skill})`,
        params: decl.params,
        ...(decl.preconditions ? { preconditions: decl.preconditions } : {}),
        steps: decl.steps,
      },
      ctx.registry,
      { kind: 'skill tool', ...(ctx.telemetry ? { telemetry: ctx.telemetry } : {}) },
    );
    return {
      ...tool,
      title: `${skill}: ${decl.name.replace(/_/g, ' ')}`,
      metadata: { ...tool.metadata, category: 'skills', tags: ['skills', skill, 'steps'] },
    };
  }
  return scriptTool(skill, id, decl, ctx);
}

function scriptTool(skill: string, id: string, decl: SkillToolDeclaration, ctx: SkillToolContext): Tool {
  const runner = ctx.scripts;
  const timeoutMs = (decl.timeoutSeconds ?? 60) * 1000;
  return defineTool({
    id,
    title: `${skill}: ${decl.name.replace(/_/g, ' ')}`,
    description:
      `${decl.description} (skill ${skill}: runs ${decl.script} in the terminal ` +
      `sandbox${runner ? '' : '; unavailable on this host'})`,
    input: paramsInput(decl.params),
    metadata: { category: 'skills', risk: 'HIGH', tags: ['skills', skill, 'script'] },
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
      sensitiveAction: true,
    },
    selfGated: runner === undefined,
    runPolicy: 'selfBounded',
    async run(args, toolCtx) {
      if (!runner) {
        return failure('UNSUPPORTED', NO_SANDBOX, {
          hint: "Use the skill's step tools or other tools instead; running scripts needs Toolgate's terminal family.",
          data: { missing: 'terminal sandbox', script: decl.script },
        });
      }
      const signal = AbortSignal.any([toolCtx.signal, AbortSignal.timeout(timeoutMs)]);
      const out = await runner.run({ skillDir: ctx.skillDir, script: decl.script ?? '', args, timeoutMs, signal });
      if (out.exitCode !== 0) {
        throw new ToolCallError(
          'EXECUTION_FAILED',
          `${decl.script} exited with ${out.exitCode}: ${out.stderr.slice(-2000)}`,
          {
            data: { exitCode: out.exitCode },
          },
        );
      }
      return success(out.stdout, { exitCode: 0, stdout: out.stdout, stderr: out.stderr, runner: runner.name });
    },
  });
}
