/** Small POSIX-ish commands: echo, printf, true/false, id, whoami, date, sleep, uname, sh, reboot. */
import { sleep } from '../faults';
import type { CommandTable } from './types';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The `date +FORMAT` subset: %Y %m %d %e %H %M %S %s %N %a %b %Z %z %j %F %T %%. UTC, like the phone. */
export function strftime(format: string, ms: number): string {
  const d = new Date(ms);
  const p2 = (n: number): string => String(n).padStart(2, '0');
  const start = Date.UTC(d.getUTCFullYear(), 0, 1);
  const table: Record<string, string> = {
    Y: String(d.getUTCFullYear()),
    m: p2(d.getUTCMonth() + 1),
    d: p2(d.getUTCDate()),
    e: String(d.getUTCDate()).padStart(2, ' '),
    H: p2(d.getUTCHours()),
    M: p2(d.getUTCMinutes()),
    S: p2(d.getUTCSeconds()),
    s: String(Math.floor(ms / 1000)),
    N: String((ms % 1000) * 1_000_000).padStart(9, '0'),
    a: DAYS[d.getUTCDay()] ?? '',
    b: MONTHS[d.getUTCMonth()] ?? '',
    Z: 'UTC',
    z: '+0000',
    j: String(Math.floor((ms - start) / 86_400_000) + 1).padStart(3, '0'),
    F: `${d.getUTCFullYear()}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())}`,
    T: `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}`,
    '%': '%',
  };
  return format.replace(/%(.)/g, (m, c: string) => table[c] ?? m);
}

function unescapeEcho(text: string): string {
  return text.replace(/\\(n|t|\\|c)/g, (_m, c: string) => ({ n: '\n', t: '\t', '\\': '\\', c: '' })[c] ?? '');
}

export const basicCommands: CommandTable = {
  true: () => 0,
  false: () => 1,
  echo({ argv, out }) {
    const args = argv.slice(1);
    let newline = true;
    let escapes = false;
    while (args[0] && /^-[neE]+$/.test(args[0])) {
      const flag = args.shift() ?? '';
      if (flag.includes('n')) newline = false;
      if (flag.includes('e')) escapes = true;
    }
    const text = args.join(' ');
    out((escapes ? unescapeEcho(text) : text) + (newline ? '\n' : ''));
    return 0;
  },
  printf({ argv, out }) {
    const [format = '', ...args] = argv.slice(1);
    let i = 0;
    const text = format.replace(/%([sd%])/g, (_m, c: string) =>
      c === '%' ? '%' : c === 'd' ? String(Number(args[i++] ?? 0) | 0) : (args[i++] ?? ''),
    );
    out(unescapeEcho(text));
    return 0;
  },
  id({ argv, out }) {
    if (argv.includes('-u') || argv.includes('-g')) {
      out(argv.includes('-n') ? 'shell\n' : '2000\n');
      return 0;
    }
    out(
      'uid=2000(shell) gid=2000(shell) ' +
        'groups=2000(shell),1004(input),1007(log),1011(adb),1015(sdcard_rw),1028(sdcard_r),' +
        '3001(net_bt_admin),3002(net_bt),3003(inet),3006(net_bw_stats),3009(readproc),3011(uhid) ' +
        'context=u:r:shell:s0\n',
    );
    return 0;
  },
  whoami({ out }) {
    out('shell\n');
    return 0;
  },
  uname({ argv, out }) {
    out(argv.includes('-a') ? 'Linux localhost 5.15.110-android14 #1 SMP PREEMPT x86_64 Toybox\n' : 'Linux\n');
    return 0;
  },
  date({ argv, out, phone }) {
    const format = argv.slice(1).find((a) => a.startsWith('+'));
    out(`${strftime(format ? format.slice(1) : '%a %b %e %H:%M:%S %Z %Y', phone.now())}\n`);
    return 0;
  },
  async sleep({ argv, err, signal }) {
    const seconds = Number(argv[1]);
    if (!Number.isFinite(seconds) || seconds < 0) {
      err(`sleep: invalid number '${argv[1] ?? ''}'\n`);
      return 1;
    }
    await sleep(seconds * 1000, signal);
    return 0;
  },
  sh({ argv, err, runLine }) {
    const c = argv.indexOf('-c');
    if (c < 0 || argv[c + 1] === undefined) {
      err('sh: only `sh -c COMMAND` is supported here\n');
      return 2;
    }
    return runLine(argv[c + 1] ?? '');
  },
  reboot({ argv, phone }) {
    phone.rebootRequests.push(argv[1] ?? '');
    phone.log.add('I', 'ShutdownThread', `Rebooting, reason: ${argv[1] ?? 'shell'}`, 612);
    return 0;
  },
};
