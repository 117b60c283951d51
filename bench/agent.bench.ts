/**
 * What an agent feels: the same six actions (device info, app list, ui_dump, screenshot, tap,
 * type) through MCP on the virtual phone, real adb server, in one run, round-robin per call so load
 * falls on every side alike:
 * - Toolgate: `toolgate serve` in its own process, Streamable HTTP, on the built JS (the bench runs
 *   `electron-vite build` first, the project's `npm run build`), and the same through tsx;
 * - Toolgate over stdio: `toolgate mcp-stdio` (the built bridge) to a built host of its own, over
 *   its local socket;
 * - mobile-mcp (pinned devDependency) over stdio, its default backend (the mobilecli binary);
 * - mobile-mcp over stdio, its adb backend (MOBILEMCP_LEGACY_ROBOT=1: an `adb` process per command);
 * - the device command alone: the commands Toolgate's tool sent for the action, replayed as it sent
 *   them (on the phone's shell lane, on a stream of their own, or `exec:`) through the project's
 *   DeviceManager with no tool around them, so our p50 minus this is what Toolgate adds;
 * - the floor: the SDK's own server with one tool that answers at once, on the SDK's Streamable
 *   HTTP and stdio transports (agent/floor-server.ts), called in the same rounds: what any MCP
 *   server's call costs through this client and these processes, with no tool and no device.
 * The phone runs in its own process (pixel profile, answering at once). An action a peer cannot do
 * on this phone is reported with the reason and the commands it sent, and gets no number.
 * The last line: {"bench":"agent","p50Ms":{side:{action:ms}},"overheadP50Ms":worst action,
 * "ratios":{"vs_mobilemcp":…,"vs_mobilemcp_adb":…},"stdio":{"overheadP50Ms":…,"ratios":{…}}} with
 * ratios = their p50 / ours, worst action; the top-level figures are Toolgate's over Streamable
 * HTTP, `stdio` the same over its stdio bridge (mobile-mcp is measured over stdio); `floorP50Ms`
 * the floor's call over each, and `beyondFloorP50Ms` the overhead less the floor, worst action;
 * `ceilingRatios` the ratios a server with no overhead at all would reach (their p50 over the floor's
 * call plus the device's), worst action: a ratio goal above its ceiling no server can meet here.
 *
 * Run: `npm run bench -- agent` (needs `adb`; no network).
 */
import { execFileSync, fork } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { freePort, killAdbServer } from '../test/support/private-adb';
import { STATE_COMMAND } from '../tools/devices/manager/device-telemetry';
import { runAdb } from '../tools/devices/virtual';
import { ACTIONS, type Action, type Target, checkResult, mobileMcpCall, toolgateCall } from './agent/actions';
import { DeviceManager } from '../tools/devices/manager/device-manager';
import { laneCommand } from '../tools/devices/manager/shell-lane';
import { FLOOR_TOOL } from './agent/floor-server';
import { type Peer, startFloor, startMobileMcp, startToolgate, startToolgateStdio } from './agent/peers';
import type { PhoneReply, PhoneRequest } from './agent/phone-process';

const ROUNDS = 30;
/**
 * Enough for every side to settle: Toolgate's screenshot tries the phone's PNG and the raw frame
 * twice each before it keeps the faster (screen-capture.ts CaptureChoice), and the device side
 * replays what the last warm-up call sent.
 */
const WARMUP_ROUNDS = 6;
const PINGS = 50;
/**
 * A pause after each measured call, far shorter than an agent's time to read an answer: work a
 * server does after answering (Toolgate's screen-state read after a UI action) then lands in it,
 * not in the next side's call on the same phone. TOOLGATE_BENCH_THINK_MS=0 runs calls back to back.
 */
const THINK_MS = Number(process.env.TOOLGATE_BENCH_THINK_MS ?? 10);
const EXIT_MARKER = '\necho __toolgate_exit=$?';
const SIDES = ['toolgate', 'toolgate_stdio', 'toolgate_tsx', 'mobilemcp', 'mobilemcp_adb', 'device'] as const;
type Side = (typeof SIDES)[number];
type PeerSide = Exclude<Side, 'device'>;
const PEERS: readonly PeerSide[] = ['toolgate', 'toolgate_stdio', 'toolgate_tsx', 'mobilemcp', 'mobilemcp_adb'];

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The 10th percentile: what a call costs when the machine's other work happens not to get in the way. */
function p10(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 10)] ?? Number.NaN;
}

const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '—');
const round2 = (x: number) => Number(x.toFixed(2));

/** The phone process, and its log of received command lines. */
function startPhone(env: NodeJS.ProcessEnv) {
  const child = fork(join(__dirname, 'agent', 'phone-process.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let next = 1;
  const waiting = new Map<number, (r: PhoneReply) => void>();
  const started = new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the phone process exited (${code})`)));
    child.on('message', (r: PhoneReply) => {
      if (r.id === 0) resolve(r.serial!);
      else waiting.get(r.id)?.(r), waiting.delete(r.id);
    });
  });
  const ask = (req: { type: 'since'; from: number } | { type: 'stop' }) =>
    new Promise<PhoneReply>((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      child.send({ ...req, id } as PhoneRequest);
    });
  return {
    started,
    /** The lines received since `from`, and where the next look starts. */
    async since(from: number): Promise<{ length: number; lines: string[] }> {
      const r = await ask({ type: 'since', from });
      if (r.error) throw new Error(`phone: ${r.error}`);
      return { length: r.length!, lines: r.lines! };
    },
    stop: () => ask({ type: 'stop' }),
  };
}

/**
 * How Toolgate sent a line the phone logged: on the phone's shell lane, on a `shell:` stream of its
 * own (the line ends with the exit marker), or `exec:`; and the command itself.
 */
function howSent(line: string): { via: 'lane' | 'stream' | 'exec'; command: string } {
  const laned = laneCommand(line);
  if (laned !== undefined) return { via: 'lane', command: laned };
  if (line.endsWith(EXIT_MARKER)) return { via: 'stream', command: line.slice(0, -EXIT_MARKER.length) };
  return { via: 'exec', command: line };
}

async function main(): Promise<void> {
  const loadBefore = loadavg();
  const adbPort = await freePort();
  const env = { ...process.env, ANDROID_ADB_SERVER_PORT: String(adbPort) };
  process.env.ANDROID_ADB_SERVER_PORT = String(adbPort);
  await runAdb(['-P', String(adbPort), 'start-server']);
  const phone = startPhone(env);
  const serial = await phone.started;
  const direct = new DeviceManager({ adbPort });
  await direct.start();
  const shell = async (cmd: string) => (await direct.shell(serial, cmd)).output;

  // The Notes editor, its text field focused: tap hits the field, typing lands in it.
  await shell('am start -n com.example.notes/.MainActivity');
  const xml = await shell('uiautomator dump /dev/tty');
  const bounds = /resource-id="com\.example\.notes:id\/note_input"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"/.exec(
    xml,
  );
  if (!bounds) throw new Error('the Notes editor shows no text field');
  const [l, t, r, b] = bounds.slice(1).map(Number) as [number, number, number, number];
  const target: Target = { serial, x: Math.round((l + r) / 2), y: Math.round((t + b) / 2) };
  await shell(`input tap ${target.x} ${target.y}`);

  // The host as `npx toolgate serve` runs it after `npm run build`: a build made now matches the
  // sources. A checkout that had no build is left without one (bin/toolgate.cjs would run it later).
  const outDir = join(__dirname, '..', 'out');
  const hadBuild = existsSync(outDir);
  execFileSync(
    process.execPath,
    [join(__dirname, '..', 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
    {
      cwd: join(__dirname, '..'),
      stdio: 'ignore',
    },
  );

  const peers: Peer[] = [];
  const floors: Peer[] = [];
  let summary: unknown;
  let breakdown: Breakdown | undefined;
  try {
    peers.push(
      await startToolgate(env, 'built'),
      await startToolgateStdio(env),
      await startToolgate(env, 'tsx'),
      await startMobileMcp(env, 'default'),
      await startMobileMcp(env, 'adb'),
    );
    floors.push(await startFloor(env, 'http'), await startFloor(env, 'stdio'));
    const everyone = [...peers, ...floors];
    const bySide = Object.fromEntries(peers.map((p) => [p.name, p])) as Record<PeerSide, Peer>;
    for (const p of everyone) console.log(`${p.name.padEnd(14)} ${p.how}`);

    const call = async (side: PeerSide, action: Action) => {
      const spec = side.startsWith('toolgate') ? toolgateCall(action, target) : mobileMcpCall(action, target);
      const result = await bySide[side].client.callTool(spec, undefined, { timeout: 60_000 });
      return checkResult(action, result);
    };

    // Warm-up, and what each side sends to the phone per action (its last warm-up call).
    const sent: Record<string, string[]> = {};
    const failures: Record<string, string> = {};
    for (let w = 0; w < WARMUP_ROUNDS; w++) {
      for (const action of ACTIONS) {
        for (const side of PEERS) {
          const key = `${side}.${action}`;
          const mark = (await phone.since(Number.MAX_SAFE_INTEGER)).length;
          const problem = await call(side, action);
          const lines = (await phone.since(mark)).lines;
          sent[key] = lines;
          if (problem) failures[key] = problem;
          else delete failures[key];
        }
      }
    }
    if (Object.keys(failures).some((k) => k.startsWith('toolgate')))
      throw new Error(`Toolgate failed: ${JSON.stringify(failures)}`);

    // The device side replays the lines Toolgate's tool sent. The separate read of the screen state
    // after a UI action has answered is no part of the action (it runs while the agent reads the
    // answer; the next call's gate waits for it), so it is not replayed, and a call that waits for
    // it pays for it in its own time.
    const own = (action: Action) =>
      (sent[`toolgate.${action}`] ?? []).map(howSent).filter((l) => l.command !== STATE_COMMAND);
    // An `exec:` output is read into one reused buffer and dropped (execInto), as the screenshot tool
    // reads its frame: joined, a 10 MB frame brought garbage collections on in this process, which
    // made the device's own time look longer than it is.
    const discard = { write: () => true, drained: () => Promise.resolve() };
    const runDevice = async (action: Action) => {
      for (const { via, command } of own(action)) {
        if (via === 'exec') await direct.execInto(serial, command, discard, { maxBytes: 64 * 1024 * 1024 });
        else await direct.shell(serial, command, via === 'stream' ? { ownStream: true } : {});
      }
    };

    const samples: Record<Side, Record<Action, number[]>> = Object.fromEntries(
      SIDES.map((s) => [s, Object.fromEntries(ACTIONS.map((a) => [a, [] as number[]]))]),
    ) as Record<Side, Record<Action, number[]>>;
    const stateReads: number[] = [];
    const floorSamples: Record<string, number[]> = Object.fromEntries(floors.map((f) => [f.name, []]));
    // Spans of the measured calls only: the host's clock is comparable with Date.now() (tools/core/pipeline/clock.ts).
    const measuredFrom = Date.now() - 50;
    for (let round = 0; round < ROUNDS; round++) {
      for (const action of ACTIONS) {
        // Rotate who goes first so no side always runs on a warmer (or busier) machine.
        const order = SIDES.map((_, i) => SIDES[(i + round) % SIDES.length]!);
        for (const side of order) {
          if (side !== 'device' && failures[`${side}.${action}`]) continue;
          const start = performance.now();
          const problem = side === 'device' ? (await runDevice(action), undefined) : await call(side, action);
          const took = performance.now() - start;
          if (problem) throw new Error(`${side} ${action} failed mid-run: ${problem}`);
          samples[side][action].push(took);
          if (THINK_MS > 0) await new Promise((r) => setTimeout(r, THINK_MS));
        }
        for (const f of floors) {
          const start = performance.now();
          await f.client.callTool({ name: FLOOR_TOOL, arguments: {} });
          floorSamples[f.name]!.push(performance.now() - start);
          if (THINK_MS > 0) await new Promise((r) => setTimeout(r, THINK_MS));
        }
      }
      const start = performance.now();
      await direct.shell(serial, STATE_COMMAND);
      stateReads.push(performance.now() - start);
    }

    // The transport alone: an MCP ping on each.
    const pings: Record<string, number[]> = {};
    for (let i = 0; i < PINGS; i++) {
      for (const p of everyone) {
        const start = performance.now();
        await p.client.ping();
        (pings[p.name] ??= []).push(performance.now() - start);
      }
    }

    const p50 = (side: Side, action: Action) => median(samples[side][action]);
    const loads = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(' ');
    console.log(
      `\n${ROUNDS} calls per action and side, round-robin, ${THINK_MS} ms between calls; ` +
        `load average ${loads(loadBefore)} before, ${loads(loadavg())} after (${cpus().length} cores)`,
    );
    console.log(
      `MCP ping p50: ${everyone.map((p) => `${p.name} ${ms(median(pings[p.name]!))} ms`).join(', ')}; ` +
        `the screen-state read alone (5 dumpsys, one shell line): ${ms(median(stateReads))} ms`,
    );
    console.log('p50 in ms (p10 in brackets); device = the lines Toolgate sent for the action, replayed over adbkit');
    const tally = () => ({ overheads: [] as number[], vs_mobilemcp: [] as number[], vs_mobilemcp_adb: [] as number[] });
    const by = { toolgate: tally(), toolgate_stdio: tally() };
    for (const action of ACTIONS) {
      const device = p50('device', action);
      const cell = (side: Side) => `${ms(p50(side, action))} [${ms(p10(samples[side][action]))}]`;
      const ratio = (ours: 'toolgate' | 'toolgate_stdio', side: Theirs) => {
        const v = p50(side, action);
        if (!Number.isFinite(v)) return undefined;
        by[ours][`vs_${side}`].push(v / p50(ours, action));
        return `x${(v / p50(ours, action)).toFixed(1)}`;
      };
      const theirs = (side: Theirs) => {
        const http = ratio('toolgate', side);
        const stdio = ratio('toolgate_stdio', side);
        return http ? `${side} ${cell(side)} ${http}/${stdio}` : `${side} — (not measured, see below)`;
      };
      for (const ours of ['toolgate', 'toolgate_stdio'] as const) by[ours].overheads.push(p50(ours, action) - device);
      console.log(
        `${action.padEnd(11)} toolgate ${cell('toolgate')} stdio ${cell('toolgate_stdio')} ` +
          `= device ${cell('device')} ` +
          `+ ${ms(p50('toolgate', action) - device)}/${ms(p50('toolgate_stdio', action) - device)}   ` +
          `tsx ${cell('toolgate_tsx')}   ${theirs('mobilemcp')}   ${theirs('mobilemcp_adb')}`,
      );
    }
    console.log('(+ overhead and xRATIO are HTTP/stdio)');
    const floor = { http: median(floorSamples.floor_http!), stdio: median(floorSamples.floor_stdio!) };
    console.log(
      `\nThe floor, the SDK's own server with a tool that answers at once, in the same rounds: tools/call p50 ` +
        `${ms(floor.http)} ms over Streamable HTTP [${ms(p10(floorSamples.floor_http!))}], ` +
        `${ms(floor.stdio)} ms over stdio [${ms(p10(floorSamples.floor_stdio!))}]. ` +
        "Toolgate's overhead beyond it (HTTP/stdio): " +
        ACTIONS.map(
          (a) =>
            `${a} ${ms(p50('toolgate', a) - p50('device', a) - floor.http)}/` +
            `${ms(p50('toolgate_stdio', a) - p50('device', a) - floor.stdio)}`,
        ).join(', '),
    );
    // The best any MCP server could show in this run: the floor's call plus the action's own device
    // commands, with nothing else. Their p50 over that is the highest ratio a server can reach
    // through this client and these processes; a goal above it cannot be met by removing overhead.
    const ceilings = { toolgate: [] as Ceiling[], toolgate_stdio: [] as Ceiling[] };
    for (const action of ACTIONS) {
      for (const [ours, under] of [
        ['toolgate', floor.http],
        ['toolgate_stdio', floor.stdio],
      ] as const) {
        const best = under + p50('device', action);
        const reach = (side: Theirs) => p50(side, action) / best;
        ceilings[ours].push({
          action,
          best,
          vs_mobilemcp: reach('mobilemcp'),
          vs_mobilemcp_adb: reach('mobilemcp_adb'),
        });
      }
    }
    console.log(
      '\nThe ceiling: a server with no overhead at all (the floor + the device) would take, and reach against ' +
        'mobile-mcp (default/adb), HTTP | stdio:',
    );
    for (const action of ACTIONS) {
      const at = (ours: 'toolgate' | 'toolgate_stdio') => {
        const c = ceilings[ours].find((x) => x.action === action)!;
        const x = (r: number) => (Number.isFinite(r) ? `x${r.toFixed(1)}` : '—');
        return `${ms(c.best)} ms ${x(c.vs_mobilemcp)}/${x(c.vs_mobilemcp_adb)}`;
      };
      console.log(`  ${action.padEnd(11)} ${at('toolgate')} | ${at('toolgate_stdio')}`);
    }
    console.log(
      "\nDevice commands per call (one steady-state call each; Toolgate's state read after a UI action is shown " +
        'where it landed, and not replayed):',
    );
    for (const action of ACTIONS) {
      for (const side of ['toolgate', 'mobilemcp', 'mobilemcp_adb'] as const) {
        const lines = sent[`${side}.${action}`] ?? [];
        const shown = lines
          .map((line) => {
            const { via, command } = howSent(line);
            return `${via === 'lane' ? '[lane] ' : ''}${command.replace(/\n.*/s, ' …')}`.slice(0, 70);
          })
          .join(' | ');
        console.log(`  ${action.padEnd(11)} ${side.padEnd(14)} ${lines.length}: ${shown}`);
      }
    }
    for (const [key, problem] of Object.entries(failures)) {
      console.log(`\nNOT MEASURED ${key}: ${problem.replace(/\s*\n\s*/g, ' / ').slice(0, 500)}`);
      console.log(`  it sent: ${(sent[key] ?? []).map((l) => l.slice(0, 100)).join(' | ') || '(nothing)'}`);
    }
    const helper = ACTIONS.filter((a) => (sent[`mobilemcp.${a}`] ?? []).some((l) => l.includes('mobilecli.dex')));
    if (helper.length > 0)
      console.log(
        `\nmobilemcp (mobilecli) tried its on-device helper for ${helper.join(', ')}: it pushes the dex ` +
          'embedded in its binary to /data/local/tmp and moves it into place with `mv`, to run it with ' +
          "app_process. The virtual phone has neither toybox's mv nor an ART to run a dex, so that step fails " +
          'on every call; mobilecli then falls back to uiautomator / screencap (its numbers above are that ' +
          'path), except for listing apps, which it cannot do without the helper. A real phone would run the helper.',
      );

    const table = Object.fromEntries(
      SIDES.map((side) => [
        side,
        Object.fromEntries(ACTIONS.map((a) => [a, Number.isFinite(p50(side, a)) ? round2(p50(side, a)) : null])),
      ]),
    );
    const worst = (xs: number[]) => (xs.length > 0 ? round2(Math.min(...xs)) : null);
    const finite = (xs: number[]) => xs.filter(Number.isFinite);
    const figures = (t: ReturnType<typeof tally>, under: number, reach: Ceiling[]) => ({
      overheadP50Ms: round2(Math.max(...t.overheads)),
      beyondFloorP50Ms: round2(Math.max(...t.overheads) - under),
      ratios: { vs_mobilemcp: worst(t.vs_mobilemcp), vs_mobilemcp_adb: worst(t.vs_mobilemcp_adb) },
      ceilingRatios: {
        vs_mobilemcp: worst(finite(reach.map((c) => c.vs_mobilemcp))),
        vs_mobilemcp_adb: worst(finite(reach.map((c) => c.vs_mobilemcp_adb))),
      },
    });
    summary = {
      bench: 'agent',
      p50Ms: table,
      floorP50Ms: { http: round2(floor.http), stdio: round2(floor.stdio) },
      ...figures(by.toolgate, floor.http, ceilings.toolgate),
      stdio: figures(by.toolgate_stdio, floor.stdio, ceilings.toolgate_stdio),
    };
    breakdown = { samples, pings: median(pings.toolgate!), since: measuredFrom, dataDir: bySide.toolgate.dataDir! };
  } finally {
    for (const p of [...peers, ...floors]) await p.close();
    await direct.close();
    await phone.stop().catch(() => undefined);
    await killAdbServer(adbPort);
    if (!hadBuild) rmSync(outDir, { recursive: true, force: true });
  }
  if (breakdown) printBreakdown(breakdown);
  console.log(JSON.stringify(summary));
}

type Theirs = 'mobilemcp' | 'mobilemcp_adb';

/** What a server with no overhead would take for an action (the floor + the device), and its ratios to mobile-mcp. */
interface Ceiling {
  action: Action;
  best: number;
  vs_mobilemcp: number;
  vs_mobilemcp_adb: number;
}

interface Breakdown {
  samples: Record<Side, Record<Action, number[]>>;
  pings: number;
  since: number;
  dataDir: string;
}

/**
 * Where Toolgate's time went, from its own spans (toolgate.db, written at close): the span is the
 * attempt the pipeline runs after its gates (the tool and its device commands); what the client saw
 * beyond it is the transport, the endpoint and the checks before the span; an MCP ping is the
 * transport alone.
 */
function printBreakdown(b: Breakdown): void {
  const db = new DatabaseSync(join(b.dataDir, 'toolgate.db'), { readOnly: true });
  const rows = db
    .prepare('SELECT tool_id AS toolId, duration_ms AS ms FROM spans WHERE started_at >= ? AND attempt = 1')
    .all(b.since) as { toolId: string; ms: number }[];
  db.close();
  console.log(
    "\nWhere Toolgate's time went (p50, ms, over HTTP): client = before the span (transport, endpoint, gates) " +
      '+ span (tool, its device commands)',
  );
  for (const action of ACTIONS) {
    const tool = toolgateCall(action, { serial: '', x: 0, y: 0 }).name;
    const span = median(rows.filter((r) => r.toolId === tool).map((r) => r.ms));
    const client = median(b.samples.toolgate[action]);
    const device = median(b.samples.device[action]);
    console.log(
      `  ${action.padEnd(11)} client ${ms(client)} = ${ms(client - span)} before/after the span ` +
        `(an MCP ping: ${ms(b.pings)}) + span ${ms(span)} (${ms(span - device)} beyond the device's ${ms(device)})`,
    );
  }
}

void main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
