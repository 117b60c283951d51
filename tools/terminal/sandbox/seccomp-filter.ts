/**
 * The seccomp program bubblewrap installs in a sandbox terminal (`--seccomp FD`). It refuses, with
 * EPERM, what would let a program act outside the sandbox through what the sandbox may touch:
 *
 * - TIOCSTI and TIOCLINUX, which push bytes into a terminal's input as if typed: how a sandboxed
 *   program escapes through a terminal it shares with the outside (CVE-2017-5226). bubblewrap's
 *   `--new-session` also stops it, but detaches the shell from its terminal, and then Ctrl-C, job
 *   control and `stty` stop working; bubblewrap's manual names this filter as the alternative.
 * - Setting the set-user-ID or set-group-ID bit (chmod, fchmod, fchmodat, fchmodat2, and open,
 *   openat, creat, mknod, mknodat with those bits in the mode). The sandbox's root is this
 *   machine's user (or root) in a user namespace: a set-user-ID file it left in the workspace would
 *   run as that user for anyone who can reach the folder. `nosuid` mounts only stop it inside.
 * - openat2 and io_uring_setup, whose arguments a filter cannot read (openat2's mode is in a
 *   struct; io_uring opens files without syscalls); C libraries fall back to openat.
 *
 * Package installs, which the person approves and which see no workspace, run with only the
 * terminal ioctls refused, since packages carry set-user-ID programs (su, mount, passwd).
 *
 * Classic BPF over `struct seccomp_data` (nr at 0, arch at 4, args[i] at 16 + 8i; the low word of an
 * argument first on little-endian machines). Syscalls of the other ABI a 64-bit kernel runs (i386 on
 * x86_64, arm on arm64) are filtered too; x32 syscalls are refused outright.
 */

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JSET_K = 0x45;
const RET_K = 0x06;
const ALLOW = 0x7fff0000;
const ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;

const TIOCSTI = 0x5412;
const TIOCLINUX = 0x541c;
const SETID_BITS = 0o6000;

type Rule =
  | { nr: number; arg: number; equals: number[] }
  | { nr: number; arg: number; anyBits: number }
  | { nr: number; errno: number };

interface Abi {
  arch: number;
  /** x86_64 also runs x32 syscalls (nr with bit 30), which are refused. */
  refuseX32?: boolean;
  rules: Rule[];
}

/**
 * Syscall numbers per ABI: [ioctl, chmod, fchmod, fchmodat, fchmodat2, open, openat, creat, mknod,
 * mknodat, openat2, io_uring_setup].
 */
type Numbers = Partial<
  Record<
    | 'ioctl'
    | 'chmod'
    | 'fchmod'
    | 'fchmodat'
    | 'fchmodat2'
    | 'open'
    | 'openat'
    | 'creat'
    | 'mknod'
    | 'mknodat'
    | 'openat2'
    | 'io_uring_setup',
    number
  >
>;

const X86_64: Numbers = {
  ioctl: 16,
  chmod: 90,
  fchmod: 91,
  fchmodat: 268,
  fchmodat2: 452,
  open: 2,
  openat: 257,
  creat: 85,
  mknod: 133,
  mknodat: 259,
  openat2: 437,
  io_uring_setup: 425,
};
const I386: Numbers = {
  ioctl: 54,
  chmod: 15,
  fchmod: 94,
  fchmodat: 306,
  fchmodat2: 452,
  open: 5,
  openat: 295,
  creat: 8,
  mknod: 14,
  mknodat: 297,
  openat2: 437,
  io_uring_setup: 425,
};
const AARCH64: Numbers = {
  ioctl: 29,
  fchmod: 52,
  fchmodat: 53,
  fchmodat2: 452,
  openat: 56,
  mknodat: 33,
  openat2: 437,
  io_uring_setup: 425,
};
const ARM: Numbers = {
  ioctl: 54,
  chmod: 15,
  fchmod: 94,
  fchmodat: 333,
  fchmodat2: 452,
  open: 5,
  openat: 322,
  creat: 8,
  mknod: 14,
  mknodat: 324,
  openat2: 437,
  io_uring_setup: 425,
};

export type FilterScope = 'terminal' | 'packages';

function rulesFor(n: Numbers, scope: FilterScope): Rule[] {
  const rules: Rule[] = [];
  if (n.ioctl !== undefined) rules.push({ nr: n.ioctl, arg: 1, equals: [TIOCSTI, TIOCLINUX] });
  if (scope === 'packages') return rules;
  // Where the mode is: chmod(path, mode), fchmod(fd, mode), fchmodat(dirfd, path, mode), open(path, flags, mode),
  // openat(dirfd, path, flags, mode), creat(path, mode), mknod(path, mode, dev), mknodat(dirfd, path, mode, dev).
  const modeArg: Array<[keyof Numbers, number]> = [
    ['chmod', 1],
    ['fchmod', 1],
    ['fchmodat', 2],
    ['fchmodat2', 2],
    ['open', 2],
    ['openat', 3],
    ['creat', 1],
    ['mknod', 1],
    ['mknodat', 2],
  ];
  for (const [name, arg] of modeArg) if (n[name] !== undefined) rules.push({ nr: n[name]!, arg, anyBits: SETID_BITS });
  if (n.openat2 !== undefined) rules.push({ nr: n.openat2, errno: ENOSYS });
  if (n.io_uring_setup !== undefined) rules.push({ nr: n.io_uring_setup, errno: EPERM });
  return rules;
}

function abisFor(arch: string, scope: FilterScope): Abi[] | undefined {
  if (arch === 'x64')
    return [
      { arch: 0xc000003e, refuseX32: true, rules: rulesFor(X86_64, scope) },
      { arch: 0x40000003, rules: rulesFor(I386, scope) },
    ];
  if (arch === 'arm64')
    return [
      { arch: 0xc00000b7, rules: rulesFor(AARCH64, scope) },
      { arch: 0x40000028, rules: rulesFor(ARM, scope) },
    ];
  return undefined;
}

export function seccompSupported(arch: string = process.arch): boolean {
  return abisFor(arch, 'terminal') !== undefined;
}

/** A tiny assembler: jumps name labels, resolved to BPF's forward offsets at the end. */
class Program {
  private readonly code: Array<{ op: number; k: number; jt: string | number; jf: string | number }> = [];
  private readonly labels = new Map<string, number>();

  emit(op: number, k: number, jt: string | number = 0, jf: string | number = 0): void {
    this.code.push({ op, k, jt, jf });
  }

  label(name: string): void {
    this.labels.set(name, this.code.length);
  }

  bytes(): Buffer {
    const out = Buffer.alloc(this.code.length * 8);
    this.code.forEach((insn, pc) => {
      const offset = (target: string | number): number => {
        if (typeof target === 'number') return target;
        const at = this.labels.get(target);
        if (at === undefined || at <= pc || at - pc - 1 > 255) throw new Error(`bad jump to ${target}`);
        return at - pc - 1;
      };
      out.writeUInt16LE(insn.op, pc * 8);
      out.writeUInt8(offset(insn.jt), pc * 8 + 2);
      out.writeUInt8(offset(insn.jf), pc * 8 + 3);
      out.writeUInt32LE(insn.k >>> 0, pc * 8 + 4);
    });
    return out;
  }
}

/** The filter for this machine's architecture, as the bytes bubblewrap reads. */
export function sandboxFilter(scope: FilterScope = 'terminal', arch: string = process.arch): Buffer {
  const abis = abisFor(arch, scope);
  if (!abis) throw new Error(`no seccomp filter for the architecture ${arch}`);
  const p = new Program();
  p.emit(LD_W_ABS, 4);
  for (const [i, abi] of abis.entries()) p.emit(JEQ_K, abi.arch, `abi${i}`, 0);
  p.emit(RET_K, ERRNO | EPERM); // an ABI this filter does not know
  // BPF jumps only go forward: each rule carries its own returns.
  abis.forEach((abi, i) => {
    p.label(`abi${i}`);
    p.emit(LD_W_ABS, 0);
    if (abi.refuseX32) {
      p.emit(JSET_K, 0x40000000, `x32_${i}`, `rules${i}`);
      p.label(`x32_${i}`);
      p.emit(RET_K, ERRNO | EPERM);
    }
    p.label(`rules${i}`);
    abi.rules.forEach((rule, r) => {
      const next = `r${i}_${r + 1}`;
      if ('errno' in rule) {
        p.emit(JEQ_K, rule.nr, 0, next);
        p.emit(RET_K, ERRNO | rule.errno);
      } else {
        p.emit(JEQ_K, rule.nr, 0, next);
        p.emit(LD_W_ABS, 16 + 8 * rule.arg);
        if ('anyBits' in rule) {
          p.emit(JSET_K, rule.anyBits, `d${i}_${r}`, `a${i}_${r}`);
        } else {
          for (const [v, value] of rule.equals.entries())
            p.emit(JEQ_K, value, `d${i}_${r}`, v === rule.equals.length - 1 ? `a${i}_${r}` : 0);
        }
        p.label(`d${i}_${r}`);
        p.emit(RET_K, ERRNO | EPERM);
        p.label(`a${i}_${r}`);
        p.emit(RET_K, ALLOW);
      }
      p.label(next);
    });
    p.emit(RET_K, ALLOW);
  });
  return p.bytes();
}
