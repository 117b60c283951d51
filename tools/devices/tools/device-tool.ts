/**
 * The device family's wrapper around defineTool (preconditions as a wrapper, not in handlers):
 * adds the optional `serial` argument, refuses NUL bytes naming the field, resolves the target
 * device (the only one attached, or the error that lists them), runs the handler with a handle
 * whose commands carry the call's cancellation, and for UI-changing tools drops the screen
 * telemetry before the action and reads it afresh after a success: in the shell line of the
 * tool's last command when it ran with `readState` (its answer then says if the phone is locked),
 * else with a command of its own once the tool has answered, which the next call's gate waits for.
 */
import { z } from 'zod';
import type { ToolAnnotations } from '../../core/annotations';
import type { ToolMetadataDeclaration } from '../../core/metadata';
import type { RunPolicyName } from '../../core/run-policy-name';
import { ToolCallError } from '../../core/result';
import { type Tool, type ToolContext, type ToolReturn, defineTool } from '../../core/tool';
import type { ByteSink, ExecIntoResult } from '../manager/adb-exec-into';
import type { DeviceService } from '../device-service';
import { deviceToolError } from '../manager/device-errors';
import { DeviceIoError } from '../manager/device-io-error';
import type { DeviceScreenState } from '../manager/device-telemetry';
import { STATE_READ_LIMIT_MS, runWithStateRead } from './state-read';

/** A device as adb lists it; optional, since with one device attached the tools use it: the name says the rest. */
export const SERIAL_FIELD = z.string().min(1).optional();

export interface RunOptions {
  timeoutMs?: number;
  maxBytes?: number;
  onChunk?: (chunk: Buffer) => void;
  /**
   * Read the screen state for the environment gate in the same shell line, right after the
   * command (a UI-changing tool's last action, whose answer reports on it): the read after the
   * answer is then not needed.
   * The command's own output and exit status come back as without it (state-read.ts); onChunk is
   * not called for such a command.
   */
  readState?: boolean;
}

export interface CommandOutput {
  output: string;
  /** null only when the output was cut at maxBytes. */
  exitCode: number | null;
  truncated: boolean;
}

/** One call's view of its device. Command lines must be built with `sh` (shell-words.ts). */
export interface DeviceCall {
  readonly serial: string;
  readonly service: DeviceService;
  /** When a UI-changing action last started on the device before this call (telemetry clock). */
  readonly previousActionAt: number | undefined;
  /** The display size read after the last UI action, before this call began; undefined when not known. */
  readonly screenBefore: { width: number; height: number } | undefined;
  run(command: string, opts?: RunOptions): Promise<CommandOutput>;
  exec(command: string, opts?: RunOptions): Promise<Buffer>;
  /** `exec`, handing the output to `sink` as it arrives (DeviceManager.execInto). */
  execInto(command: string, sink: ByteSink, opts?: RunOptions): Promise<ExecIntoResult>;
  /**
   * The screen state a `readState` command read, while no other command ran after it; null when
   * that read ran out of time (the readings then stay unknown); undefined when none was read.
   */
  readonly stateAfterLastCommand: DeviceScreenState | null | undefined;
}

export interface DeviceToolDefinition<Shape extends z.ZodRawShape> {
  id: string;
  title?: string;
  description: string;
  input: Shape;
  metadata: ToolMetadataDeclaration;
  annotations: Partial<ToolAnnotations>;
  /** The action may change what is on screen: telemetry is dropped before and re-read after. */
  changesUi?: boolean;
  selfGated?: boolean;
  /** The run policy's name when the metadata's inferred one does not fit (a tool bounding its own time). */
  runPolicy?: RunPolicyName;
  run(
    args: z.infer<z.ZodObject<Shape>> & { serial?: string },
    device: DeviceCall,
    ctx: ToolContext,
  ): Promise<ToolReturn>;
}

/** The first string anywhere in the arguments that holds a NUL byte, as a field path. */
function nulField(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes('\0') ? path : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulField(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      const found = nulField(v, path ? `${path}.${k}` : k);
      if (found) return found;
    }
  }
  return undefined;
}

export function deviceCall(service: DeviceService, serial: string, ctx: ToolContext): DeviceCall {
  const signal = ctx.signal;
  let state: DeviceScreenState | null | undefined;
  /** A result that ended without an exit status was cut off: the link dropped during the command. */
  const requireStatus = async (result: CommandOutput, command: string): Promise<CommandOutput> => {
    if (result.exitCode !== null || result.truncated) return result;
    await service.manager.tracker.check().catch(() => undefined);
    throw deviceToolError(
      new DeviceIoError('disconnected', 'the output ended without an exit status', serial),
      serial,
      `\`${command.split(' ', 1)[0]}\``,
    );
  };
  return {
    serial,
    service,
    previousActionAt: service.telemetry.lastActionAt(serial),
    screenBefore: service.telemetry.screenSize(serial),
    get stateAfterLastCommand() {
      return state;
    },
    async run(command, opts = {}) {
      state = undefined;
      const { readState, ...rest } = opts;
      if (!readState) return requireStatus(await service.manager.shell(serial, command, { ...rest, signal }), command);
      const { onChunk: _unsupported, ...withoutChunks } = rest;
      const outcome = await runWithStateRead(service.manager, serial, command, { ...withoutChunks, signal });
      if ('raw' in outcome) return requireStatus(outcome.raw, command);
      // A state read that was cut leaves the readings unknown (the gate lets calls through), with no second try.
      state = outcome.state === undefined ? null : service.telemetry.record(serial, outcome.state);
      return outcome.own;
    },
    async exec(command, opts = {}) {
      state = undefined;
      const result = await service.manager.exec(serial, command, { ...opts, signal });
      return result.data;
    },
    async execInto(command, sink, opts = {}) {
      state = undefined;
      return service.manager.execInto(serial, command, sink, { ...opts, signal });
    },
  };
}

const LOCKED_NOTE =
  'The phone is locked now (the lock screen shows): unlock it (ui_swipe up, or the user enters the PIN) before ' +
  'using apps.';

/** A successful result with a sentence added to its text; anything else unchanged. */
function withNote(result: ToolReturn, note: string): ToolReturn {
  if (typeof result === 'string') return `${result} ${note}`;
  if (typeof result !== 'object' || result === null || !('ok' in result) || !result.ok) return result;
  const content = result.content.map((c, i) =>
    i === 0 && c.type === 'text' ? { ...c, text: `${c.text} ${note}` } : c,
  );
  return { ...result, content };
}

export function defineDeviceTool<Shape extends z.ZodRawShape>(
  service: DeviceService,
  def: DeviceToolDefinition<Shape>,
): Tool {
  const input = z.object({ ...def.input, serial: SERIAL_FIELD });
  return defineTool({
    id: def.id,
    ...(def.title ? { title: def.title } : {}),
    description: def.description,
    input,
    metadata: def.metadata,
    annotations: def.annotations,
    ...(def.selfGated ? { selfGated: true } : {}),
    ...(def.runPolicy !== undefined ? { runPolicy: def.runPolicy } : {}),
    // One breaker per phone: a phone that dropped off must not pause the tool on the others.
    breakerScope: (args) => (args as { serial?: string }).serial ?? service.soleSerial(),
    run: async (args, ctx) => {
      const field = nulField(args, '');
      if (field) {
        throw new ToolCallError(
          'INVALID_ARGUMENT',
          `argument "${field}" contains a NUL byte, which cannot be passed to a device.`,
          {
            hint: 'Remove the NUL (\\u0000) character and retry.',
            data: { fields: [field] },
          },
        );
      }
      const typed = args as z.infer<z.ZodObject<Shape>> & { serial?: string };
      const serial = await service.resolveSerial(typed.serial);
      const device = deviceCall(service, serial, ctx);
      if (!def.changesUi) return def.run(typed, device, ctx);
      service.telemetry.invalidate(serial);
      const result = await def.run(typed, device, ctx);
      const read = device.stateAfterLastCommand;
      // Off the answer's path: the agent reads the answer while the phone reports its state.
      if (read === undefined) service.telemetry.refreshSoon(serial, STATE_READ_LIMIT_MS);
      return read?.locked ? withNote(result, LOCKED_NOTE) : result;
    },
  }) as Tool;
}
