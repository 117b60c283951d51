/**
 * Reads the screen as a UI tree the way real phones need it: one shell line gets the display size
 * (`wm size`: the UI tree's root is the active window, which may leave out the navigation bar or be
 * a dialog), whether the keyguard shows, and `uiautomator dump`. uiautomator fails now and then
 * without a failing status — "ERROR: could not get idle state." while the screen animates, "ERROR:
 * null root node returned by UiTestAutomationBridge." between windows — so a failed dump is retried
 * with growing pauses while the call's time lasts. Before the idle-state failure the phone waits up
 * to 10 s for the screen to settle (AOSP cmds/uiautomator DumpCommand: `waitForIdle(1000, 1000 * 10)`),
 * so a retry is started only when it can end within the time left, and when the time runs out the
 * phone's own failure is reported, not a timeout of a try that was cut short. An action whose result
 * the dump checks (typed text arriving) may run first in the same line, `before`: one round trip to
 * the phone, not two.
 */
import { parseWmSize } from '../wm-size';
import { randomBytes } from 'node:crypto';
import { ToolCallError, isToolCallError } from '../../core/result';
import { firstLines, SEPARATOR, splitParts } from './arguments';
import type { CommandOutput, DeviceCall } from './device-tool';
import { type UiSnapshot, dumpXml, parseUiDump } from './ui-tree';
import { FOCUS_COMMAND, parseFocus } from './window-focus';

export interface DumpRead {
  snapshot: UiSnapshot;
  xml: string;
  attempts: number;
}

/** The `before` command's own output and exit status, then the dump's output. */
function splitBefore(output: string, marker: RegExp): { before: CommandOutput; rest: string } {
  const m = marker.exec(output);
  // No status line: the line was cut before the action's end; its status is unknown.
  if (!m) return { before: { output, exitCode: null, truncated: false }, rest: '' };
  return {
    before: { output: output.slice(0, m.index), exitCode: Number(m[1]), truncated: false },
    rest: output.slice(m.index + m[0].length),
  };
}

type Failure = 'idle-state' | 'null-root' | 'no-tree';

/**
 * Room kept beyond the slowest try when deciding on another: the phone's idle wait is its own, the
 * command's start and the tree's transfer vary.
 */
const RETRY_SLACK_MS = 1_000;

const COMMAND =
  `wm size; echo ${SEPARATOR}; dumpsys window policy | grep -E 'mIsShowing=|mShowingLockscreen='; ` +
  `${FOCUS_COMMAND}; echo ${SEPARATOR}; uiautomator dump /dev/tty`;
/** The tree alone, for a caller that needs neither the display size nor the keyguard. */
const TREE_COMMAND = 'uiautomator dump /dev/tty';

function failureOf(output: string): Failure | undefined {
  if (/could not get idle state/.test(output)) return 'idle-state';
  if (/null root node returned by UiTestAutomationBridge/.test(output)) return 'null-root';
  return dumpXml(output) ? undefined : 'no-tree';
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** A command to run right before the first dump, in its line, and what to do with its answer. */
export interface BeforeDump {
  command: string;
  check(result: CommandOutput): void;
}

/**
 * Dumps the screen, retrying idle-state and null-root failures (pauses of 250 ms, doubling, up to
 * 2 s) while one more try can end within `budgetMs`; then the failure as a ToolCallError that says
 * what the phone answered. A try may last as long as the slowest one so far: on a screen that keeps
 * animating each lasts the phone's whole idle wait.
 */
export async function readUiDump(
  device: DeviceCall,
  opts: {
    budgetMs?: number;
    signal?: AbortSignal;
    before?: BeforeDump;
    /**
     * Only the tree: no `wm size` and no keyguard read, for a check of what the screen shows (typed
     * text arriving, a ref still there). On a real phone each of those is a process of its own
     * (`wm` starts `cmd window`); the snapshot's screen is then the root window's bounds and its
     * `locked` unknown.
     */
    treeOnly?: boolean;
  } = {},
): Promise<DumpRead> {
  const command = opts.treeOnly ? TREE_COMMAND : COMMAND;
  const budgetMs = opts.budgetMs ?? 25_000;
  const started = Date.now();
  let pause = 250;
  let attempts = 0;
  let last: { failure: Failure; output: string } | undefined;
  /** The longest try so far, in ms: how long one more may take. */
  let slowest = 0;
  /** The last try got no answer within its deadline (after the phone had answered an earlier one). */
  let cut = false;
  let before = opts.before;
  for (;;) {
    attempts++;
    const tryStarted = Date.now();
    const left = budgetMs - (tryStarted - started);
    // A per-call nonce in the action's status line: nothing the action prints can forge it.
    const nonce = before ? randomBytes(6).toString('hex') : '';
    let r: CommandOutput;
    try {
      r = await device.run(before ? `${before.command}\necho __toolgate_before_${nonce}=$?\n${command}` : command, {
        timeoutMs: Math.max(5_000, Math.min(left, 20_000)),
        maxBytes: 8 * 1024 * 1024,
      });
    } catch (e) {
      // A retry that outlasted the time left (a longer idle wait than seen so far): what the phone
      // answered before is the failure to report, not the cut.
      if (!last || !isToolCallError(e) || e.toolErrorCode !== 'TIMEOUT') throw e;
      cut = true;
      break;
    }
    slowest = Math.max(slowest, Date.now() - tryStarted);
    let output = r.output;
    if (before) {
      const parts = splitBefore(output, new RegExp(`__toolgate_before_${nonce}=(\\d+)\\r?\\n`));
      // The action's answer is the caller's to judge (it throws to end the call); it runs once.
      before.check(parts.before);
      before = undefined;
      output = parts.rest;
    }
    const [wm = '', policy = '', dump = ''] = opts.treeOnly ? ['', '', output] : splitParts(output);
    const failure = failureOf(dump);
    if (!failure) {
      const xml = dumpXml(dump) ?? '';
      const snapshot = parseUiDump(device.serial, dump, Date.now(), parseWmSize(wm));
      const locked = /(mIsShowing|mShowingLockscreen)=true/.test(policy);
      if (/(mIsShowing|mShowingLockscreen)=/.test(policy)) snapshot.locked = locked;
      const focus = parseFocus(policy);
      if (focus !== undefined) snapshot.focus = focus;
      return { snapshot, xml, attempts };
    }
    last = { failure, output: dump };
    const elapsed = Date.now() - started;
    // Only a try that can end within the budget: one cut by its deadline would say nothing.
    const nextEnds = elapsed + pause + slowest + RETRY_SLACK_MS;
    if (failure === 'no-tree' || opts.signal?.aborted || nextEnds > budgetMs) break;
    await sleep(pause, opts.signal);
    pause = Math.min(pause * 2, 2_000);
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const tried = `${attempts} attempt(s) over ${seconds} s${cut ? ', the last one cut off by the time left' : ''}`;
  if (last.failure === 'idle-state')
    throw new ToolCallError(
      'EXECUTION_FAILED',
      `uiautomator could not read the screen of ${device.serial}: it never went idle ` +
        `("ERROR: could not get idle state.", ${tried}).`,
      {
        hint:
          'Something on screen keeps animating (a video, a spinner, a live wallpaper). Pause it or wait until ' +
          'it stops, then retry ui_dump; screenshot works meanwhile. Where window animations keep it busy, turn ' +
          'them off (Developer options > animation scales, or `settings put global window_animation_scale 0`, ' +
          'the same for transition_animation_scale and animator_duration_scale).',
        data: { failure: 'idle-state', attempts },
      },
    );
  if (last.failure === 'null-root')
    throw new ToolCallError(
      'EXECUTION_FAILED',
      `uiautomator found no active window on ${device.serial} ` +
        `("ERROR: null root node returned by UiTestAutomationBridge.", ${tried}).`,
      {
        hint: 'The screen was between windows (an app starting or a dialog opening); retry ui_dump in a moment.',
        data: { failure: 'null-root', attempts },
      },
    );
  throw new ToolCallError('EXECUTION_FAILED', `uiautomator returned no UI tree: ${firstLines(last.output)}`, {
    hint:
      'Another automation tool (Appium, a uiautomator2 server) may hold the accessibility bridge; ' +
      'stop it, or use screenshot.',
    data: { failure: 'no-tree', attempts },
  });
}
