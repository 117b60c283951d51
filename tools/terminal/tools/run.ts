/**
 * terminal.run: one command at the terminal's prompt, its output (bounded, the end kept) and exit
 * status. In a sandbox it just runs. On the host and on phones it passes shell_execute's gate
 * first: read-only lines run, refused ones never do, the rest wait for a person (on the host only
 * lines that name nothing count as read-only: host-command-policy.ts).
 *
 * `output: "pipe"` is for large outputs: the command runs at the same prompt, but its output and
 * errors reach the host through a pipe rather than the PTY, whose line discipline converts every
 * line end one character at a time and so carries a few MB/s of short lines (run-command.ts). A
 * full-screen or interactive program wants the PTY, which stays the default.
 */
import { z } from 'zod';
import { timeoutMs } from '../../core/fields';
import { ToolCallError, success } from '../../core/result';
import { type Tool, defineTool } from '../../core/tool';
import type { TerminalContext } from '../context';
import { TERMINAL_ID, perTerminal, terminalMetadata } from '../declare';
import { hostJudgement } from '../host-command-policy';
import { MAX_COMMAND_CHARS, MAX_WAIT_MS, RUN_OUTPUT_LIMIT } from '../limits';
import { typedByPerson } from '../owner';
import { type RunResult, runInTerminal } from '../run-command';
import { unrunnable } from '../run-markers';
import { judgeTerminalCommand } from '../shell-gate-adapter';
import type { Foreground } from '../backends/types';
import type { Terminal } from '../terminal';
import { actingTerminal } from '../terminal-access';

/** A phone's shell shows no sign of what is in front; its prompt on the cursor's row is the sign it is ready. */
const PROMPT_END = /[$#%>]$/;
const PROMPT_WAIT_MS = 3000;
const FOREGROUND_WAIT_MS = 300;

async function promptLine(t: Terminal, withinMs: number): Promise<string> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const line = await t.screen.cursorLines(0);
    if (PROMPT_END.test(line) || Date.now() > deadline) return line;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** What is in front, waiting a little while a program other than the shell is (a prompt hook's runs briefly). */
async function shellInFront(t: Terminal): Promise<Foreground> {
  const deadline = Date.now() + FOREGROUND_WAIT_MS;
  for (;;) {
    const fg = t.foreground();
    if (fg.kind !== 'program' || Date.now() > deadline) return fg;
    await new Promise((r) => setTimeout(r, 10));
  }
}

function note(r: RunResult, timeoutMs: number): string {
  switch (r.ended) {
    case 'exit-status':
      return `[exit status ${r.exitCode}]`;
    case 'timeout':
      if (!r.began)
        return (
          `[not started after ${Math.round(timeoutMs / 1000)} s: the shell has not taken the line yet (a slow ` +
          'prompt?); it runs when the shell is free, and what it prints then shows in the terminal: read it with ' +
          'terminal.observe or terminal.wait]'
        );
      return (
        `[still running after ${Math.round(timeoutMs / 1000)} s; it keeps running: read on with ` +
        `terminal.observe or terminal.wait, stop it with terminal.signal INT]`
      );
    case 'interrupted':
      return '[interrupted (Ctrl-C); the shell dropped the rest of the line, so no exit status]';
    case 'terminal-exited':
      return '[the terminal’s shell ended during the command]';
    case 'cancelled':
      return '[cancelled; the command was interrupted with Ctrl-C]';
  }
}

export function runTool(ctx: TerminalContext): Tool {
  const tool: Tool = defineTool({
    id: 'terminal.run',
    title: 'Run a command in a terminal',
    description:
      'Runs one command line at the shell prompt and returns its output (the last 64 KB) and exit status; on host ' +
      "and phone it passes shell_execute's gate. One still running at timeoutMs goes on.",
    input: z.object({
      id: TERMINAL_ID,
      command: z.string().min(1).max(MAX_COMMAND_CHARS).describe('One line: join commands with ";" or "&&".'),
      timeoutMs: timeoutMs(100, MAX_WAIT_MS).default(30_000),
      output: z
        .enum(['pty', 'pipe'])
        .default('pty')
        .describe('"pipe": stdout and stderr skip the terminal, far faster for large outputs (not on phones).'),
    }),
    metadata: terminalMetadata('HIGH', 'shell'),
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
      sensitiveAction: true,
    },
    selfGated: true,
    runPolicy: 'selfBounded',
    breakerScope: perTerminal,
    async run(args, call) {
      const t = actingTerminal(ctx, args.id, call);
      if (args.output === 'pipe' && !t.pipeDir)
        throw new ToolCallError(
          'UNSUPPORTED',
          `Pipe mode cannot be used on ${t.info.backend}: the command runs on the phone, where the host can ` +
            'make no pipe it reads; its one adb stream carries the PTY, and a second stream per run is not opened.',
          {
            hint: 'Run it with output "pty" (the default), or have it write a file on the phone and read that file.',
            data: { slug: 'terminal-pipe-unsupported', fields: ['output'] },
          },
        );
      const problem = unrunnable(args.command);
      if (problem)
        throw new ToolCallError('INVALID_ARGUMENT', `This command cannot be run as one line: ${problem}.`, {
          data: { fields: ['command'] },
        });
      if (t.running)
        throw new ToolCallError(
          'EXECUTION_FAILED',
          `Terminal ${t.info.id} is still running an earlier command (call ${t.running.callId}).`,
          {
            hint: 'Wait for it (terminal.wait), stop it (terminal.signal INT), or open another terminal.',
            data: { slug: 'terminal-busy' },
          },
        );
      const fg = await shellInFront(t);
      if (fg.kind === 'program')
        throw new ToolCallError(
          'EXECUTION_FAILED',
          `\`${fg.name}\` is in the foreground of terminal ${t.info.id}; the command would be typed into it.`,
          {
            hint:
              'Quit or stop it first (terminal.write its quit key, or terminal.signal INT), or read it with ' +
              'terminal.snapshot.',
            data: { slug: 'terminal-foreground-busy' },
          },
        );
      if (t.info.kind === 'device') {
        const line = await promptLine(t, PROMPT_WAIT_MS);
        if (!PROMPT_END.test(line))
          throw new ToolCallError(
            'EXECUTION_FAILED',
            `The phone’s shell in terminal ${t.info.id} is not showing its prompt.`,
            {
              hint: 'Look with terminal.snapshot; stop what runs with terminal.signal INT, then retry.',
              data: { slug: 'terminal-no-prompt' },
            },
          );
      }
      let verdict: string = 'sandbox';
      if (t.info.kind !== 'sandbox' && !typedByPerson(call)) {
        const gate = judgeTerminalCommand(args.command);
        const judged = t.info.kind === 'host' ? hostJudgement(args.command, gate) : gate;
        verdict = judged.verdict;
        if (judged.verdict === 'deny')
          throw new ToolCallError('PERMISSION_DENIED', `Refused to run this command: ${judged.reasons.join('; ')}.`, {
            hint:
              'This command is never run from Toolgate; do not retry it or a variant of it. If it is really ' +
              'needed, ask the user to run it themselves.',
            data: { gate: 'shell', decision: 'deny', slug: 'terminal-refused', reasons: judged.reasons },
          });
        if (judged.verdict === 'ask')
          await ctx.approvals.ask({
            tool,
            ctx: call,
            title:
              `Run in ${t.info.backend} terminal ${t.info.id}: ` +
              `${args.command.length > 80 ? `${args.command.slice(0, 77)}…` : args.command}`,
            args: { terminal: t.info.id, backend: t.info.backend, command: args.command, reasons: judged.reasons },
            grant: { terminal: t.info.id, command: args.command },
            what: `running a command in the ${t.info.backend} terminal ${t.info.id}`,
          });
      }
      const result = await runInTerminal(t, args.command, {
        timeoutMs: args.timeoutMs,
        callId: call.callId,
        signal: call.signal,
        clearLine: t.info.kind !== 'device',
        style: t.info.kind === 'device' ? 'text' : 'osc',
        ...(args.output === 'pipe' && t.pipeDir ? { pipe: t.pipeDir } : {}),
        onProgress: (bytes, text) => call.progress({ progress: bytes, message: text }),
      });
      const body = result.output === '' ? '(no output)' : result.output;
      const cut = result.truncated
        ? `\n[output cut: the last ${RUN_OUTPUT_LIMIT / 1024} KB of ${result.bytes} bytes are shown]`
        : '';
      const held = result.pipeHeld
        ? '\n[a process it started still holds its output pipe: what it writes now shows in the terminal ' +
          '(terminal.observe)]'
        : '';
      return success(`${body}${cut}\n${note(result, args.timeoutMs)}${held}`, {
        id: t.info.id,
        exitCode: result.exitCode,
        ended: result.ended,
        truncated: result.truncated,
        bytes: result.bytes,
        durationMs: result.durationMs,
        verdict,
        output: result.output,
        mode: args.output,
        ...(result.peakHeldBytes !== undefined ? { peakHeldBytes: result.peakHeldBytes } : {}),
      });
    },
  });
  return tool;
}
