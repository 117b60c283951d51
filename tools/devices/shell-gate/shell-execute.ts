/**
 * shell_execute: the model's own shell text, run in the device shell. That is the point of the
 * tool, so the text is passed as the `shell:` command as written; what protects the device is
 * the command-level gate (command-policy.ts), which judges the line as mksh parses it: read-only
 * lines run, refused ones never run, the rest wait for a person through the injected approval
 * port. The tool is self-gated, so the pipeline's tool-level prompt is skipped and the person is
 * asked once, about the command.
 * Output is bounded (64 KB) and streamed as progress; the exit status comes back with it.
 */
import { z } from 'zod';
import { timeoutMs } from '../../core/fields';
import { type ApprovalDecision, type ApprovalRequest, type Denier, denierOf } from '../../core/permission';
import { ToolCallError, isToolCallError, success } from '../../core/result';
import type { Tool, ToolContext } from '../../core/tool';
import type { DeviceService } from '../device-service';
import { deviceToolError } from '../manager/device-errors';
import { DeviceIoError } from '../manager/device-io-error';
import { defineDeviceTool } from '../tools/device-tool';
import { type LineJudgement, judgeCommandLine } from './command-policy';

/**
 * What the person is asked about: a core ApprovalRequest plus the command, so a host can hand it
 * to its approval queue as is.
 */
export interface CommandApprovalRequest extends ApprovalRequest {
  command: string;
  serial: string;
  reasons: string[];
}

/** The command-approval port; the host wires it to its approval queue. */
export type CommandApprover = (request: CommandApprovalRequest, signal?: AbortSignal) => Promise<ApprovalDecision>;

export const SHELL_OUTPUT_LIMIT = 64 * 1024;
/** Bytes held back from progress, so the exit marker at the end never shows in a progress message. */
const HOLD_BACK = 48;

/**
 * The error's slug for each kind of denial, for people reading the span; who decided it is the
 * span's own `decidedBy`, which the approval gate tells the running call (shared/call-classes.ts).
 */
const DENIAL_SLUG: Readonly<Record<Denier, string>> = {
  person: 'shell-denied',
  rule: 'shell-rule-denied',
  system: 'shell-unanswered',
};

export function shellExecuteTool(service: DeviceService, approveCommand: CommandApprover | undefined): Tool {
  /** Command lines a person approved for the whole session, per session. */
  const approvedForSession = new Map<string, Set<string>>();

  async function approve(
    command: string,
    serial: string,
    judgement: LineJudgement,
    ctx: ToolContext,
    tool: Tool,
  ): Promise<void> {
    if (approvedForSession.get(ctx.sessionId)?.has(`${serial}\n${command}`)) return;
    if (!approveCommand) {
      throw new ToolCallError(
        'PERMISSION_DENIED',
        `This command needs a person's approval and no approver is connected: ${judgement.reasons.join('; ')}.`,
        {
          hint:
            'Use read-only commands (ls, cat, getprop, dumpsys, pm list…) or a dedicated tool, ' +
            'or ask the user to run it.',
          data: { gate: 'shell', decision: 'deny', slug: 'shell-no-approver' },
        },
      );
    }
    const request: CommandApprovalRequest = {
      callId: ctx.callId,
      sessionId: ctx.sessionId,
      toolId: tool.id,
      title: `Run on ${serial}: ${command.length > 80 ? `${command.slice(0, 77)}…` : command}`,
      args: { command, serial },
      risk: 'HIGH',
      annotations: tool.metadata.annotations,
      requester: ctx.requester,
      command,
      serial,
      reasons: judgement.reasons,
    };
    let decision: ApprovalDecision;
    try {
      decision = await approveCommand(request, ctx.signal);
    } catch (e) {
      throw new ToolCallError(
        'PERMISSION_DENIED',
        `Approval for the command could not be obtained: ${e instanceof Error ? e.message : String(e)}`,
        { data: { gate: 'shell', decision: 'deny', slug: DENIAL_SLUG.system } },
      );
    }
    if (decision.decision === 'approve_session') {
      let set = approvedForSession.get(ctx.sessionId);
      if (!set) approvedForSession.set(ctx.sessionId, (set = new Set()));
      set.add(`${serial}\n${command}`);
    } else if (decision.decision !== 'approve_once') {
      const reason = decision.reason?.trim();
      // Only a person's answer is "the user denied": no answer in time, or a rule, is said as such.
      const who = denierOf(decision.decider);
      const what = `running \`${command.slice(0, 120)}\``;
      const message =
        who === 'person'
          ? `The user denied ${what}${reason ? `: ${reason}` : '.'}`
          : `Not approved: ${what} was not run${reason ? `: ${reason}` : '.'}`;
      throw new ToolCallError('PERMISSION_DENIED', message, {
        data: { gate: 'shell', decision: 'deny', slug: DENIAL_SLUG[who], ...(reason ? { reason } : {}) },
      });
    }
  }

  const tool: Tool = defineDeviceTool(service, {
    id: 'shell_execute',
    title: 'Run a shell command on the device',
    description:
      'Runs a command line in the device shell and returns its output (at most 64 KB) and exit status. Read-only ' +
      'commands run at once, others ask the person; reboots, formatting, root shells and wiping data are refused.',
    input: {
      command: z.string().min(1).max(8000).describe('e.g. "dumpsys battery | grep level".'),
      timeoutMs: timeoutMs(1000, 120_000).default(30_000),
    },
    metadata: { category: 'shell', risk: 'HIGH', tags: ['device', 'shell'] },
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
      sensitiveAction: true,
    },
    selfGated: true,
    // The command's own `timeoutMs` (up to 120 s) bounds the run and it honours cancellation, so the
    // mutating preset's 60 s must not cut a bound the schema promises.
    runPolicy: 'selfBounded',
    async run(args, device, ctx) {
      const judgement = judgeCommandLine(args.command);
      if (judgement.verdict === 'deny') {
        throw new ToolCallError('PERMISSION_DENIED', `Refused to run this command: ${judgement.reasons.join('; ')}.`, {
          hint:
            'This command is never run from Toolgate; do not retry it or a variant of it. ' +
            'If it is really needed, ask the user to run it themselves.',
          data: { gate: 'shell', decision: 'deny', slug: 'shell-refused', reasons: judgement.reasons },
        });
      }
      if (judgement.verdict === 'ask') await approve(args.command, device.serial, judgement, ctx, tool);

      let received = 0;
      let pending = '';
      const onChunk = (chunk: Buffer) => {
        received += chunk.length;
        pending += chunk.toString('utf8');
        if (pending.length <= HOLD_BACK) return;
        const text = pending.slice(0, pending.length - HOLD_BACK);
        pending = pending.slice(pending.length - HOLD_BACK);
        ctx.progress({ progress: received, message: text });
      };
      // A subshell, so `exit N` or `exec …` in the model's text cannot swallow the exit status line.
      const result = await service.manager
        .shell(device.serial, `(\n${args.command}\n)`, {
          timeoutMs: args.timeoutMs,
          maxBytes: SHELL_OUTPUT_LIMIT,
          onChunk,
          ownStream: true,
          signal: ctx.signal,
        })
        .catch((e: unknown) => {
          // The command's own bound, which the caller chose: said as such, not as a phone that stopped answering.
          if (isToolCallError(e) && e.toolErrorCode === 'TIMEOUT' && e.data?.kind === 'timeout')
            throw new ToolCallError(
              'TIMEOUT',
              `The command did not finish within its timeoutMs (${args.timeoutMs / 1000} s) and was stopped.`,
              {
                hint:
                  'Raise timeoutMs (at most 120000), or make the command end sooner (bound its wait, ' +
                  'narrow its output). If quick commands time out too, the phone may be frozen: check its screen.',
                data: { serial: device.serial, timeoutMs: args.timeoutMs, slug: 'command-timeout' },
              },
            );
          throw e;
        });
      if (judgement.verdict !== 'read') service.telemetry.invalidate(device.serial);
      if (result.exitCode === null && !result.truncated && result.output === '') {
        await service.manager.tracker.check().catch(() => undefined);
        throw deviceToolError(
          new DeviceIoError('disconnected', 'no output and no exit status', device.serial),
          device.serial,
          'the command',
        );
      }
      const notes: string[] = [];
      if (result.truncated)
        notes.push(
          `[output truncated at ${SHELL_OUTPUT_LIMIT / 1024} KB and the command was stopped; ` +
            'narrow it (grep, head, tail) to see the part you need]',
        );
      else if (result.exitCode === null) notes.push('[exit status unknown: the shell ended before reporting it]');
      else notes.push(`[exit status ${result.exitCode}]`);
      const body = result.output === '' ? '(no output)' : result.output.replace(/\n$/, '');
      return success(`${body}\n${notes.join('\n')}`, {
        serial: device.serial,
        exitCode: result.exitCode,
        truncated: result.truncated,
        bytes: Buffer.byteLength(result.output),
        verdict: judgement.verdict,
      });
    },
  });
  return tool;
}
