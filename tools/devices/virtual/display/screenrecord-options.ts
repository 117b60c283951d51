/**
 * screenrecord's command line, read as its main() reads it on the phone's Android
 * (screenrecord-build.ts): bionic's getopt_long (GNU-compatible wording, options permuted before
 * operands, unambiguous prefixes accepted), then each option's check in the order given, with
 * screenrecord's own messages and status 2 for a refused line. `--help` prints the usage and
 * exits 0; a bad option gets getopt's one line, not the usage.
 */
import type { DeviceProfile } from '../profiles';
import { MAX_TIME_LIMIT_S, MIN_BIT_RATE, type ScreenrecordBuild, maxBitRate, usageText } from './screenrecord-build';

export interface RecordOptions {
  size?: { width: number; height: number };
  bitRate: number;
  /** Seconds; Infinity with Android 14's `--time-limit 0`. */
  timeLimitS: number;
  format: string;
  /** Index into the profile's displays (`--display-id`), absent for the default display. */
  display?: number;
  verbose: boolean;
  file: string;
}

/** What screenrecord prints before it exits, and with which status. */
export interface Refusal {
  text: string;
  status: number;
}

const UINT32_MAX = 4_294_967_295;

/** strtol's reading of the start of `text`: the number and what follows it (no digits: NaN). */
function strtol(text: string): { value: number; rest: string } {
  const m = /^\s*([+-]?\d+)/.exec(text);
  return m ? { value: Number(m[1]), rest: text.slice(m[0].length) } : { value: Number.NaN, rest: text };
}

/** atoi: the leading number, 0 when there is none. */
function atoi(text: string): number {
  const { value } = strtol(text);
  return Number.isNaN(value) ? 0 : value;
}

/** parseValueWithUnit: a bare number or one with a single M (megabits). */
function valueWithUnit(text: string): number | undefined {
  const { value, rest } = strtol(text);
  const n = Number.isNaN(value) ? 0 : value;
  if (rest === '') return n;
  if (rest.toUpperCase() === 'M') return n * 1_000_000;
  return undefined;
}

/** parseWidthHeight: "1280x720", base 10. */
function widthHeight(text: string): { width: number; height: number } | undefined {
  const w = strtol(text);
  if (Number.isNaN(w.value) || !w.rest.startsWith('x') || w.rest.length === 1) return undefined;
  const h = strtol(w.rest.slice(1));
  if (Number.isNaN(h.value) || h.rest !== '') return undefined;
  return { width: w.value >>> 0, height: h.value >>> 0 };
}

/**
 * getopt_long over `args`, one option at a time as main() asks for them: each option (name, value)
 * or getopt's complaint; the operands (permuted past the options) fill `operands` as it goes.
 */
function* getopt(
  args: readonly string[],
  build: ScreenrecordBuild,
  operands: string[],
): Generator<[string, string] | Refusal> {
  const complain = (text: string): Refusal => ({ text: `screenrecord: ${text}\n`, status: 2 });
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') {
      operands.push(...args.slice(i + 1));
      return;
    }
    if (!arg.startsWith('-') || arg === '-') {
      operands.push(arg);
      continue;
    }
    if (!arg.startsWith('--')) return yield complain(`invalid option -- ${arg[1]}`);
    const body = arg.slice(2);
    const eq = body.indexOf('=');
    const name = eq >= 0 ? body.slice(0, eq) : body;
    const known = [...build.options.keys()];
    const matches = known.includes(name) ? [name] : known.filter((k) => k.startsWith(name));
    if (matches.length > 1) return yield complain(`option \`--${name}' is ambiguous`);
    const option = matches[0];
    if (option === undefined) return yield complain(`unrecognized option \`--${body}'`);
    const takesValue = build.options.get(option) ?? false;
    if (!takesValue && eq >= 0) return yield complain(`option \`--${name}' doesn't allow an argument`);
    let value = '';
    if (takesValue) {
      const next = eq >= 0 ? body.slice(eq + 1) : args[++i];
      if (next === undefined) return yield complain(`option \`--${body}' requires an argument`);
      value = next;
    }
    yield [option, value];
  }
}

/** Reads the command line as `profile`'s screenrecord does; a Refusal is what it prints and its status. */
export function readRecordOptions(
  args: readonly string[],
  build: ScreenrecordBuild,
  profile: DeviceProfile,
): RecordOptions | Refusal {
  const operands: string[] = [];
  const refuse = (text: string): Refusal => ({ text, status: 2 });
  const o: RecordOptions = {
    bitRate: build.defaultBitRate,
    timeLimitS: MAX_TIME_LIMIT_S,
    format: 'mp4',
    verbose: false,
    file: '',
  };
  for (const next of getopt(args, build, operands)) {
    if (!Array.isArray(next)) return next;
    const [name, value] = next;
    switch (name) {
      case 'help':
        return { text: usageText(build), status: 0 };
      case 'verbose':
        o.verbose = true;
        break;
      case 'size': {
        const size = widthHeight(value);
        if (!size) return refuse(`Invalid size '${value}', must be width x height\n`);
        if (size.width === 0 || size.height === 0)
          return refuse(`Invalid size ${size.width}x${size.height}, width and height may not be zero\n`);
        o.size = size;
        break;
      }
      case 'bit-rate': {
        const rate = build.bitRateUnits ? valueWithUnit(value) : atoi(value);
        if (rate === undefined) return refuse(`Unrecognized value: ${value}\n`);
        const max = maxBitRate(profile.sdk);
        if (rate < MIN_BIT_RATE || rate > max)
          return refuse(`Bit rate ${rate}bps outside acceptable range [${MIN_BIT_RATE},${max}]\n`);
        o.bitRate = rate;
        break;
      }
      case 'time-limit': {
        if (build.unboundedTimeLimit) {
          const { value: seconds, rest } = strtol(value);
          if (Number.isNaN(seconds) || (rest !== '' && !rest.startsWith(' ')))
            return refuse('Error parsing time limit argument\n');
          if (seconds < 0 || seconds > UINT32_MAX)
            return refuse(`Time limit ${seconds}s outside acceptable range [0,${UINT32_MAX}] seconds\n`);
          o.timeLimitS = seconds === 0 ? Number.POSITIVE_INFINITY : seconds;
        } else {
          // atoi into an unsigned: a negative number is a huge limit, printed back as the number given.
          const seconds = atoi(value);
          if (seconds <= 0 || seconds > MAX_TIME_LIMIT_S)
            return refuse(`Time limit ${seconds}s outside acceptable range [1,${MAX_TIME_LIMIT_S}]\n`);
          o.timeLimitS = seconds;
        }
        break;
      }
      case 'output-format':
        if (!build.formats?.includes(value)) return refuse(`Unknown format '${value}'\n`);
        o.format = value;
        break;
      case 'display-id': {
        const index = profile.displays.findIndex((d) => d.physicalId === toBigInt(value).toString());
        if (index >= 0) {
          o.display = index;
          break;
        }
        // Android 13 (DisplayId::fromValue) says one sentence for every bad id; 11 and 12 two.
        if (profile.sdk >= 33) return refuse('Invalid physical display ID\n');
        const id = toBigInt(value);
        return refuse(
          id === 0n ? 'Please specify a valid physical display id\n' : `Invalid physical display id: ${id}\n`,
        );
      }
      case 'bframes':
        if (valueWithUnit(value) === undefined) return refuse(`Unrecognized value: ${value}\n`);
        break;
      default:
        // --rotate, --bugreport, --show-device-info, --show-frame-time, --monotonic-time, --persistent-surface:
        // they change how the video looks or is stamped, not whether it records.
        break;
    }
  }
  if (operands.length !== 1) return refuse('Must specify output file (see --help).\n');
  o.file = operands[0] ?? '';
  return o;
}

/** atoll: the leading integer (0 when there is none). */
function toBigInt(text: string): bigint {
  const m = /^\s*([+-]?\d+)/.exec(text);
  return m ? BigInt(m[1] ?? '0') : 0n;
}
