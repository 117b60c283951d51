/**
 * The allow-list of commands that only look, with the options under which they do. A command here
 * either has no option or operand that writes, runs something or changes the device (ANY_ARGUMENTS),
 * or has a rule that accepts only its reading options and operands (`sort` without `-o`, `uniq`
 * with one file, `sed` without `-i`/`w`/`e`, `find` without `-delete`/`-exec`/`-fprint`…). What is
 * not on the list is not read-only. Rules get the fields of the command's arguments
 * (word-fields.ts), so an expansion that may become an option is never taken for an operand.
 */
import { type Judgement, ask, read, tok } from './judgement';
import { type OptionFailure, type OptionSpec, type ParsedOptions, parseOptions } from './option-parser';
import { awkWriter, sedWriter } from './script-languages';
import { type Field, staticText } from './word-fields';

/** No option or operand of these writes, runs a command or changes the device (toybox and GNU alike). */
export const ANY_ARGUMENTS = new Set(
  (
    'ls cat echo printf pwd id whoami groups logname tty uptime uname df du free ps top pidof pgrep getprop head ' +
    'tail wc md5sum sha1sum sha224sum sha256sum sha384sum sha512sum sha3sum cksum crc32 cut tr grep egrep fgrep ' +
    'stat basename dirname readlink realpath which true false : sleep usleep exit return break continue wait test [ ' +
    'expr seq printenv nproc getenforce netstat ping ping6 cmp diff od hexdump strings lsof vmstat iostat lsmod ' +
    'tac rev nl paste comm fold fmt expand count base64 base32 getconf whence w who lsattr lspci lsusb mountpoint ' +
    'pmap pwdx cal factor zcat bzcat uuencode'
  ).split(' '),
);

function failure(name: string, f: OptionFailure, writers: Readonly<Record<string, string>> = {}): Judgement {
  const why = writers[f.token];
  if (why) return ask(`${tok(f.token)}: ${name} ${why}`);
  if (f.why === 'may-be-option') return ask(`${tok(f.token)}: may expand to an option of ${name}`);
  if (f.why === 'missing-argument') return ask(`${tok(f.token)}: an option of ${name} without its argument`);
  return ask(`${tok(f.token)}: an option of ${name} not known to be read-only`);
}

/** Read-only when the options parse under `spec` and `check` (if any) finds nothing. */
function options(
  name: string,
  args: readonly Field[],
  spec: OptionSpec,
  writers: Readonly<Record<string, string>> = {},
  check?: (p: ParsedOptions) => Judgement | null,
): Judgement {
  const parsed = parseOptions(args, spec);
  if (!parsed.ok) return failure(name, parsed, writers);
  return check?.(parsed) ?? read(`${name} only reads`);
}

function atMostOneFile(name: string, p: ParsedOptions): Judgement | null {
  const [, second] = p.operands;
  if (second) return ask(`${tok(second.text)}: a second file operand, which ${name} writes its output to`);
  if (p.operands[0]?.multi)
    return ask(`${tok(p.operands[0].text)}: may name several files, and ${name} writes to the second`);
  return null;
}

const FIND_TESTS_NO_ARG = new Set(
  (
    '-print -print0 -ls -prune -quit -depth -d -xdev -mount -follow -empty -true -false -readable -writable ' +
    '-executable -nouser -nogroup -daystart -noleaf -o -a -or -and -not ! ( ) ,'
  ).split(' '),
);
const FIND_TESTS_ONE_ARG = new Set(
  (
    '-name -iname -path -ipath -wholename -iwholename -regex -iregex -regextype -type -xtype -maxdepth -mindepth ' +
    '-size -mtime -mmin -atime -amin -ctime -cmin -newer -anewer -cnewer -user -group -uid -gid -perm -links -inum ' +
    '-samefile -lname -ilname -fstype -context -printf -used'
  ).split(' '),
);
const FIND_WRITERS: Record<string, string> = {
  '-delete': 'deletes what it finds',
  '-exec': 'runs a command on what it finds',
  '-execdir': 'runs a command on what it finds',
  '-ok': 'runs a command on what it finds',
  '-okdir': 'runs a command on what it finds',
  '-fprint': 'writes a file',
  '-fprint0': 'writes a file',
  '-fprintf': 'writes a file',
  '-fls': 'writes a file',
};

/** find: read-only with tests and printing actions only; `-exec` and friends are judged by the caller too. */
function find(args: readonly Field[]): Judgement {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const text = staticText(a);
    if (text === null) {
      if (a.maybeOption) return ask(`${tok(a.text)}: may expand to a find action`);
      continue;
    }
    if (FIND_WRITERS[text]) return ask(`${tok(text)}: find ${FIND_WRITERS[text]}`);
    if (FIND_TESTS_ONE_ARG.has(text) || /^-newer[acmtB]{2}$/.test(text)) i++;
    else if (/^-[HLPO]/.test(text) && i === 0) continue;
    else if (text.startsWith('-') && !FIND_TESTS_NO_ARG.has(text))
      return ask(`${tok(text)}: a find expression not known to be read-only`);
  }
  return read('find only lists');
}

function sed(args: readonly Field[]): Judgement {
  const spec: OptionSpec = {
    flags: 'nErsuz',
    withArg: 'el',
    long: {
      quiet: false,
      silent: false,
      'regexp-extended': false,
      expression: true,
      posix: false,
      separate: false,
      unbuffered: false,
      'null-data': false,
      debug: false,
      sandbox: false,
      'line-length': true,
    },
  };
  const writers = {
    '-i': 'edits files in place',
    '--in-place': 'edits files in place',
    '-f': 'reads its script from a file',
  };
  return options('sed', args, spec, writers, (p) => {
    const given = p.options.filter((o) => o.name === 'e' || o.name === 'expression').map((o) => o.value!);
    const scripts = given.length > 0 ? given : p.operands.slice(0, 1);
    if (scripts.length === 0) return ask('sed without a script');
    for (const s of scripts) {
      const text = staticText(s);
      if (text === null) return ask(`${tok(s.text)}: a sed script only known when it runs`);
      const writer = sedWriter(text);
      if (writer) return ask(`${tok(writer)}: a sed command that writes files, runs commands or is not known`);
    }
    return null;
  });
}

function awk(args: readonly Field[]): Judgement {
  return options(
    'awk',
    args,
    { withArg: 'Fv', stopAtOperand: true },
    { '-f': 'reads its program from a file' },
    (p) => {
      const program = p.operands[0];
      const text = program ? staticText(program) : null;
      if (!program || text === null)
        return ask(`${tok(program?.text ?? 'awk')}: an awk program only known when it runs`);
      const writer = awkWriter(text);
      return writer ? ask(`${tok(writer)}: an awk program that may write files or run commands`) : null;
    },
  );
}

function date(args: readonly Field[]): Judgement {
  const spec: OptionSpec = {
    flags: 'uRI',
    withArg: 'rd',
    long: { utc: false, universal: false, 'rfc-email': false, date: true, reference: true },
  };
  return options('date', args, spec, { '-s': 'sets the clock', '--set': 'sets the clock' }, (p) => {
    const set = p.operands.find(
      (o) => !('ch' in (o.atoms[0] ?? { exp: 0 })) || (o.atoms[0] as { ch: string }).ch !== '+',
    );
    return set ? ask(`${tok(set.text)}: date sets the clock to its operand`) : null;
  });
}

const LOGCAT: OptionSpec = {
  flags: 'dsBDgSLhp',
  withArg: 'tTvbem',
  long: {
    dividers: false,
    pid: true,
    regex: true,
    format: true,
    buffer: true,
    'max-count': true,
    binary: false,
    last: false,
    statistics: false,
    uid: true,
    help: false,
  },
};
const LOGCAT_WRITERS: Record<string, string> = {
  '-c': 'clears the log',
  '--clear': 'clears the log',
  '-G': 'resizes the log buffers',
  '-P': 'changes the prune list',
  '-f': 'writes the log to a file',
  '--file': 'writes the log to a file',
  '-r': 'rotates log files',
  '-n': 'rotates log files',
};

const DMESG: OptionSpec = {
  flags: 'rtTwkxHLuedPS',
  withArg: 'sflF',
  long: { human: false, ctime: false, notime: false, raw: false, follow: false, decode: false, kernel: false },
};
const DMESG_WRITERS = {
  '-c': 'clears the kernel log',
  '-C': 'clears the kernel log',
  '-n': 'sets the console log level',
  '-D': 'turns console logging off',
  '-E': 'turns console logging on',
};

/** The judgement of an allow-listed command, or null when `name` is not on the list. */
export function judgeReadOnly(name: string, args: readonly Field[]): Judgement | null {
  if (ANY_ARGUMENTS.has(name)) return read(`${name} only reads`);
  switch (name) {
    case 'sort':
      return options(
        'sort',
        args,
        {
          flags: 'bcCdfghiMmnrsuVz',
          withArg: 'ktS',
          long: {
            'ignore-leading-blanks': false,
            'dictionary-order': false,
            'ignore-case': false,
            'general-numeric-sort': false,
            'human-numeric-sort': false,
            'month-sort': false,
            'numeric-sort': false,
            'version-sort': false,
            reverse: false,
            check: false,
            merge: false,
            stable: false,
            unique: false,
            'zero-terminated': false,
            key: true,
            'field-separator': true,
            'buffer-size': true,
          },
        },
        { '-o': 'writes its output to a file', '--output': 'writes its output to a file' },
      );
    case 'uniq':
      return options(
        'uniq',
        args,
        {
          flags: 'cdDuiz',
          withArg: 'fsw',
          long: {
            count: false,
            repeated: false,
            unique: false,
            'ignore-case': false,
            'zero-terminated': false,
            'skip-fields': true,
            'skip-chars': true,
            'check-chars': true,
          },
        },
        {},
        (p) => atMostOneFile('uniq', p),
      );
    case 'xxd':
      return options('xxd', args, { flags: 'aCEeipru', withArg: 'cglosn' }, {}, (p) => atMostOneFile('xxd', p));
    case 'find':
      return find(args);
    case 'sed':
      return sed(args);
    case 'awk':
      return awk(args);
    case 'date':
      return date(args);
    case 'logcat':
      return options('logcat', args, LOGCAT, LOGCAT_WRITERS);
    case 'dmesg':
      return options('dmesg', args, DMESG, DMESG_WRITERS);
    case 'file':
      return options('file', args, { flags: 'bchiLNnprszkZ0lE', withArg: 'eFfmPd' }, { '-C': 'compiles a magic file' });
    case 'ss':
      return options(
        'ss',
        args,
        { flags: 'hVHnrapltuwxOSbmeiE046s', withArg: 'fAFN' },
        {
          '-K': 'closes sockets',
          '-D': 'writes socket information to a file',
        },
      );
    default:
      return null;
  }
}
