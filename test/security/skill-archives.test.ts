/**
 * Rule: a skill is checked whole before anything lands on disk. An archive or folder that could
 * write outside its folder (zip-slip, absolute paths, drive letters, backslashes), that holds
 * links or devices, that is too big, too many or lies about its sizes, or whose SKILL.md breaks
 * the Agent Skills rules, is refused with INVALID_ARGUMENT naming what is wrong, even when the
 * person approved the install; nothing is written outside the staging folder, and the staging
 * folder is left empty.
 */
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestHost, connectClient, startTestHost, textOf } from '../host/harness';
import { answerApprovals } from '../skills/support/approvals';
import { type TarEntry, type ZipEntry, minimalSkill, skillMd, tarGz, zip } from '../skills/support/archives';

let t: TestHost;
let client: Client;
let approver: ReturnType<typeof answerApprovals>;
let workspace: string;

beforeAll(async () => {
  t = await startTestHost();
  workspace = join(t.dataDir, 'workspace');
  client = await connectClient(t.host, 'skill-attacker');
  approver = answerApprovals(t.host);
});
afterAll(async () => {
  approver?.stop();
  await client?.close();
  await t?.dispose();
});

const MIB = 1024 * 1024;
const good = (name = 'evil-skill') => ({ name: `${name}/SKILL.md`, data: minimalSkill(name) });

async function install(source: string) {
  const result = await client.callTool({ name: 'skill_install', arguments: { source } });
  return {
    isError: result.isError,
    text: textOf(result),
    error: result.structuredContent as {
      code: string;
      message: string;
      data?: { fields?: string[]; issues?: Array<{ field: string; message: string }> };
    },
  };
}

function installedSkillFolders(): string[] {
  return readdirSync(join(t.dataDir, 'skills')).filter((n) => n !== '.staging');
}

function expectNothingLanded(): void {
  expect(installedSkillFolders().sort()).toEqual(['android-app-smoke-test', 'web-form-check']);
  const staging = join(t.dataDir, 'skills', '.staging');
  expect(existsSync(staging) ? readdirSync(staging) : []).toEqual([]);
  for (const escaped of [
    join(t.dataDir, 'evil.txt'),
    join(t.dataDir, 'skills', 'evil.txt'),
    join(workspace, 'evil.txt'),
    '/tmp/toolgate-evil',
  ])
    expect(existsSync(escaped)).toBe(false);
}

async function refusedArchive(file: string, data: Buffer, expected: RegExp, field?: string) {
  writeFileSync(join(workspace, file), data);
  const r = await install(file);
  expect(r.isError).toBe(true);
  expect(r.error.code).toBe('INVALID_ARGUMENT');
  expect(r.error.data?.fields).toEqual(['source']);
  expect(r.error.message).toMatch(expected);
  if (field) expect(r.error.data?.issues?.map((i) => i.field)).toContain(field);
  expect(r.error.message).toContain('nothing was installed');
  expectNothingLanded();
}

describe('archive entries that would write outside the skill are refused (zip-slip and friends)', () => {
  const cases: Array<[string, ZipEntry[], RegExp]> = [
    [
      'a ../ entry',
      [good(), { name: '../evil.txt', data: 'x' }],
      /"\.\.\/evil\.txt" climbs out of the skill with "\.\." \(zip-slip\)/,
    ],
    [
      'a ../ hidden in the middle',
      [good(), { name: 'evil-skill/a/../../../evil.txt', data: 'x' }],
      /climbs out of the skill/,
    ],
    [
      'an absolute path',
      [good(), { name: '/tmp/toolgate-evil', data: 'x' }],
      /"\/tmp\/toolgate-evil" is an absolute path/,
    ],
    ['a drive letter', [good(), { name: 'C:/evil.txt', data: 'x' }], /starts with a drive letter/],
    ['backslashes', [good(), { name: '..\\..\\evil.txt', data: 'x' }], /uses backslashes/],
    ['a NUL in a name', [good(), { name: 'evil-skill/a\0b', data: 'x' }], /NUL character/],
  ];
  it.each(cases)('refuses a zip with %s', async (_what, entries, expected) => {
    await refusedArchive(`slip-${randomBytes(3).toString('hex')}.zip`, zip(entries), expected);
  });

  const tarCases: Array<[string, TarEntry[], RegExp]> = [
    ['a ../ entry', [good(), { name: '../evil.txt', data: 'x' }], /climbs out of the skill with "\.\." \(zip-slip\)/],
    ['an absolute path', [good(), { name: '/tmp/toolgate-evil', data: 'x' }], /is an absolute path/],
  ];
  it.each(tarCases)('refuses a .tar.gz with %s', async (_what, entries, expected) => {
    await refusedArchive(`slip-${randomBytes(3).toString('hex')}.tar.gz`, tarGz(entries), expected);
  });
});

describe('links, devices and pipes in archives are refused by what they are', () => {
  it('refuses a symbolic link in a zip (by the Unix mode in its attributes)', async () => {
    await refusedArchive(
      'link.zip',
      zip([good(), { name: 'evil-skill/passwd', data: '/etc/passwd', mode: 0o120777 }]),
      /evil-skill\/passwd is a symbolic link/,
    );
  });
  it.each([
    ['symbolic link', '2'],
    ['hard link', '1'],
    ['character device', '3'],
    ['block device', '4'],
    ['named pipe', '6'],
  ] as const)('refuses a %s in a .tar.gz', async (what, type) => {
    const entry: TarEntry = {
      name: 'evil-skill/x',
      type,
      ...(type === '1' || type === '2' ? { linkname: '/etc/passwd' } : {}),
    };
    await refusedArchive(`special-${type}.tgz`, tarGz([good(), entry]), new RegExp(`evil-skill/x is a ${what}`));
  });
  it('refuses a zip device entry and an encrypted entry', async () => {
    await refusedArchive('dev.zip', zip([good(), { name: 'evil-skill/tty', mode: 0o020666 }]), /is a character device/);
    await refusedArchive(
      'enc.skill',
      zip([good(), { name: 'evil-skill/secret.txt', data: 'x', encrypted: true }]),
      /is encrypted/,
    );
  });
  it('refuses a workspace folder holding a symbolic link', async () => {
    const dir = join(workspace, 'folder-skills', 'linky');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'SKILL.md'), minimalSkill('linky'));
    symlinkSync('/etc/passwd', join(dir, 'passwd'));
    const r = await install('folder-skills/linky');
    expect([r.error.code, r.error.message]).toEqual([
      'INVALID_ARGUMENT',
      expect.stringMatching(/passwd is a symbolic link/),
    ]);
    expectNothingLanded();
  });
});

describe('sizes and counts are bounded, also when an archive lies about them', () => {
  it('refuses a file larger than 5 MiB by its declared size', async () => {
    const big = Buffer.alloc(6 * MIB);
    await refusedArchive(
      'big.zip',
      zip([good(), { name: 'evil-skill/assets/big.bin', data: big, deflate: true }]),
      /assets\/big\.bin is 6291456 bytes; one file may have at most 5242880/,
    );
  });
  it('refuses a zip entry that inflates past its declared size', async () => {
    const big = Buffer.alloc(6 * MIB);
    await refusedArchive(
      'liar.zip',
      zip([good(), { name: 'evil-skill/liar.bin', data: big, deflate: true, declaredSize: 100 }]),
      /liar\.bin|damaged/,
    );
  });
  it('refuses files that add up to more than 50 MiB', async () => {
    const part = Buffer.alloc(5 * MIB - 1);
    const entries: ZipEntry[] = [
      good(),
      ...Array.from({ length: 11 }, (_, i) => ({ name: `evil-skill/assets/p${i}.bin`, data: part, deflate: true })),
    ];
    await refusedArchive('total.zip', zip(entries), /add up to more than 52428800 bytes/);
  });
  it('refuses more than 500 entries, read from the central directory before any is inflated', async () => {
    const entries: ZipEntry[] = [
      good(),
      ...Array.from({ length: 500 }, (_, i) => ({ name: `evil-skill/f${i}.txt`, data: 'x' })),
    ];
    await refusedArchive('many.zip', zip(entries), /holds 501 entries; at most 500/);
  });
  it('refuses a gzip bomb at the inflation cap', async () => {
    await refusedArchive(
      'bomb.tar.gz',
      tarGz([good(), { name: 'evil-skill/zeros', data: Buffer.alloc(60 * MIB) }]),
      /inflates to more than 52428800 bytes/,
    );
  });
  it('refuses an archive file over 20 MiB before reading it', async () => {
    await refusedArchive('huge.zip', randomBytes(21 * MIB), /archives of at most 20971520 bytes/);
  });
  it('refuses a damaged archive and a file that is no archive', async () => {
    await refusedArchive('junk.zip', randomBytes(4096), /not a readable zip archive/);
    writeFileSync(join(workspace, 'notes.txt'), 'hello');
    const r = await install('notes.txt');
    expect([r.error.code, r.error.data?.fields]).toEqual(['INVALID_ARGUMENT', ['source']]);
    expect(r.error.message).toMatch(/neither a folder nor a \.zip, \.skill, \.tar\.gz or \.tgz archive/);
  });
});

describe('SKILL.md that breaks the Agent Skills rules is refused field by field', () => {
  const fm = (name: string, text: string) => zip([{ name: `${name}/SKILL.md`, data: text }]);
  const cases: Array<[string, Buffer, string, RegExp]> = [
    ['no SKILL.md at all', zip([{ name: 'x/README.md', data: 'hi' }]), 'SKILL.md', /no SKILL\.md at the root/],
    ['no front matter', fm('plain', '# Just markdown\n'), 'front matter', /must start with a line "---"/],
    ['unclosed front matter', fm('open', '---\nname: open\ndescription: d\n'), 'front matter', /not closed/],
    ['invalid YAML', fm('yaml', skillMd('name: [unclosed\ndescription: d')), 'front matter', /front matter:/],
    ['a missing name', fm('anon', skillMd('description: no name here')), 'name', /name: is required/],
    [
      'an uppercase name',
      fm('My-Skill', skillMd('name: My-Skill\ndescription: d')),
      'name',
      /'My-Skill' has uppercase letters/,
    ],
    ['a double hyphen', fm('a--b', skillMd('name: a--b\ndescription: d')), 'name', /two hyphens in a row/],
    [
      'a name that is not its folder',
      fm('alpha', skillMd('name: beta\ndescription: d')),
      'name',
      /'beta' must match the folder the skill is in \('alpha'\)/,
    ],
    ['a missing description', fm('nodesc', skillMd('name: nodesc')), 'description', /description: is required/],
    [
      'a description over 1024 characters',
      fm('long', skillMd(`name: long\ndescription: ${'x'.repeat(1100)}`)),
      'description',
      /longer than 1024/,
    ],
    [
      'a metadata value that is not a string',
      fm('meta', skillMd('name: meta\ndescription: d\nmetadata:\n  version: 1.0')),
      'metadata.version',
      /values must be strings/,
    ],
    [
      'a declared tool calling an unknown tool',
      fm(
        'tooly',
        skillMd(
          'name: tooly\ndescription: d\ntools:\n  - name: go\n   ' +
            ' description: d\n    steps:\n      - tool: no_such_tool',
        ),
      ),
      'tools[0].steps[0].tool',
      /unknown tool 'no_such_tool'/,
    ],
    [
      'a declared tool calling another composite tool',
      fm(
        'nest',
        skillMd(
          'name: nest\ndescription: d\ntools:\n  - name: go\n    ' +
            'description: d\n    steps:\n      - tool: tool_batch_run',
        ),
      ),
      'tools[0].steps[0].tool',
      /a skill tool cannot call 'tool_batch_run'/,
    ],
    [
      'a script outside scripts/',
      fm(
        'scripty',
        skillMd('name: scripty\ndescription: d\ntools:\n  - name: run\n    description: d\n    script: ../../bin/sh'),
      ),
      'tools[0].script',
      /must be a file under scripts\//,
    ],
    [
      'SKILL.md that is not UTF-8',
      zip([{ name: 'latin/SKILL.md', data: Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe, 0x0a]) }]),
      'SKILL.md',
      /not valid UTF-8/,
    ],
  ];
  it.each(cases)('refuses %s', async (_what, archive, field, expected) => {
    await refusedArchive(`fm-${randomBytes(3).toString('hex')}.zip`, archive, expected, field);
  });

  it('asked the person each time and still installed nothing', () => {
    expect(approver.asked.length).toBeGreaterThan(30);
    expect(new Set(approver.asked)).toEqual(new Set(['skill_install']));
  });
});
