/**
 * The seccomp program bubblewrap installs in the sandbox (`--seccomp FD`): it refuses the TIOCSTI
 * and TIOCLINUX ioctls with EPERM and allows everything else. TIOCSTI pushes bytes into a
 * terminal's input queue as if typed; it is how a sandboxed program escapes through a terminal it
 * shares with the outside (CVE-2017-5226). bubblewrap's `--new-session` would also stop it, but it
 * detaches the shell from its terminal, and then Ctrl-C, job control and `stty` stop working;
 * bubblewrap's manual names this filter as the alternative. The terminal here is the sandbox's own
 * PTY, so TIOCSTI could only type into the sandbox itself; the filter keeps it that way whatever the
 * PTY is shared with.
 *
 * Classic BPF over `struct seccomp_data` (nr at 0, arch at 4, args[i] at 16 + 8i; the low word of
 * an argument first on little-endian machines). Syscalls of the other ABI a 64-bit kernel runs
 * (i386 on x86_64, arm on arm64) are filtered too, and x32 syscalls are refused outright.
 */

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JSET_K = 0x45;
const RET_K = 0x06;
const ALLOW = 0x7fff0000;
const ERRNO_EPERM = 0x00050000 | 1;

const TIOCSTI = 0x5412;
const TIOCLINUX = 0x541c;

interface Abi {
  arch: number;
  ioctl: number;
}

const ABIS: Record<string, Abi[]> = {
  // AUDIT_ARCH_X86_64 and AUDIT_ARCH_I386
  x64: [
    { arch: 0xc000003e, ioctl: 16 },
    { arch: 0x40000003, ioctl: 54 },
  ],
  // AUDIT_ARCH_AARCH64 and AUDIT_ARCH_ARM
  arm64: [
    { arch: 0xc00000b7, ioctl: 29 },
    { arch: 0x40000028, ioctl: 54 },
  ],
};

type Insn = [code: number, jt: number, jf: number, k: number];

export function seccompSupported(arch: string = process.arch): boolean {
  return arch in ABIS;
}

/** The filter for this machine's architecture, as the bytes bubblewrap reads. */
export function ttyInjectionFilter(arch: string = process.arch): Buffer {
  const abis = ABIS[arch];
  if (!abis) throw new Error(`no seccomp filter for the architecture ${arch}`);
  const program: Insn[] = [];
  // [ld arch] [jeq arch_i → block i]… [refuse]  then per ABI: [ld nr] ([x32 → refuse]) [ioctl?] [ld arg1] [TIOCSTI?] [TIOCLINUX?] [refuse] [allow]
  program.push([LD_W_ABS, 0, 0, 4]);
  const blocks: Insn[][] = abis.map((abi, i) => {
    const block: Insn[] = [];
    block.push([LD_W_ABS, 0, 0, 0]);
    if (i === 0 && arch === 'x64') block.push([JSET_K, 0, 1, 0x40000000], [RET_K, 0, 0, ERRNO_EPERM]);
    block.push([JEQ_K, 0, 4, abi.ioctl]);
    block.push([LD_W_ABS, 0, 0, 24]);
    block.push([JEQ_K, 1, 0, TIOCSTI]);
    block.push([JEQ_K, 0, 1, TIOCLINUX]);
    block.push([RET_K, 0, 0, ERRNO_EPERM]);
    block.push([RET_K, 0, 0, ALLOW]);
    return block;
  });
  // Dispatch on the arch word: jump to the block of the matching ABI, refuse unknown ABIs.
  // From dispatch instruction i, block i starts past the other dispatch jumps, the refusal and the blocks before it.
  for (let i = 0; i < abis.length; i++) {
    const before = blocks.slice(0, i).reduce((n, b) => n + b.length, 0);
    program.push([JEQ_K, abis.length - i + before, 0, abis[i]!.arch]);
  }
  program.push([RET_K, 0, 0, ERRNO_EPERM]);
  for (const b of blocks) program.push(...b);
  const out = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, k], i) => {
    out.writeUInt16LE(code, i * 8);
    out.writeUInt8(jt, i * 8 + 2);
    out.writeUInt8(jf, i * 8 + 3);
    out.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return out;
}
