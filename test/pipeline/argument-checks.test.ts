/**
 * Rule guarded (docs/architecture.md#schema-validation): nobody is asked to approve a call that
 * cannot run, and what a person approves is what will run. The arguments are validated (and the
 * tool known) before the approval gate; the person sees the parsed arguments, defaults filled in,
 * with any undeclared field marked ignored; for a tool that needs approval an undeclared near
 * name of a declared field is refused before anyone is asked; every result tells the model which
 * fields were ignored, while fields that resemble nothing stay tolerated, as in the seed.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../tools/core';
import { createPipeline, nearField } from '../../tools/core/pipeline';
import { DESTRUCTIVE, fixtureTool, registryOf } from './fixtures';

const uninstallInput = z.object({
  packageName: z.string().regex(/^[a-zA-Z][\w]*(\.[a-zA-Z][\w]*)+$/, 'expected a package name like com.example.app'),
  keepData: z.boolean().default(false),
});

function setup() {
  const asked: ApprovalRequest[] = [];
  const ran: unknown[] = [];
  const uninstall = fixtureTool(
    'app_uninstall',
    (args) => {
      ran.push(args);
      return 'uninstalled';
    },
    { annotations: DESTRUCTIVE, metadata: { category: 'apps', risk: 'HIGH' }, input: uninstallInput },
  );
  const echo = fixtureTool('echo_text', ({ text }) => `echoed ${text}`);
  const pipeline = createPipeline(registryOf(uninstall, echo), {
    approval: {
      decide: async (request) => {
        asked.push(request);
        return { decision: 'approve_once' };
      },
    },
  });
  return { asked, ran, call: (toolId: string, args: unknown) => pipeline.executor.execute({ toolId, args }) };
}

describe('arguments before approval', () => {
  it('refuses invalid arguments without asking anyone, naming the field', async () => {
    const s = setup();
    expect(await s.call('app_uninstall', { packageName: 'not a package' })).toMatchObject({
      ok: false,
      error: {
        code: 'INVALID_ARGUMENT',
        message: 'Invalid arguments: argument "packageName": expected a package name like com.example.app.',
      },
    });
    expect(await s.call('app_uninstall', {})).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT', message: 'Invalid arguments: missing required argument "packageName".' },
    });
    expect(s.asked).toEqual([]);
    expect(s.ran).toEqual([]);
  });

  it('shows the person the parsed arguments, defaults filled in, and the undeclared fields as ignored', async () => {
    const s = setup();
    expect(await s.call('app_uninstall', { packageName: 'com.example.shop', colour: 'red' })).toMatchObject({
      ok: true,
    });
    expect(s.asked).toMatchObject([
      { args: { packageName: 'com.example.shop', keepData: false }, ignored: { colour: 'red' } },
    ]);
    expect(s.ran).toEqual([{ packageName: 'com.example.shop', keepData: false }]);
  });

  it('refuses a near name of a declared field before anyone is asked, for a tool that needs approval', async () => {
    const s = setup();
    expect(await s.call('app_uninstall', { packageName: 'com.example.shop', keep_data: true })).toEqual({
      ok: false,
      error: {
        code: 'INVALID_ARGUMENT',
        message: 'Invalid arguments: keep_data is not a field of app_uninstall; did you mean keepData?',
        hint: 'Send the call again with keepData spelled as declared. Nothing ran and nobody was asked.',
        data: { fields: ['keep_data'], suggestions: ['keepData'] },
      },
    });
    expect(await s.call('app_uninstall', { packageName: 'com.example.shop', keepdata: true })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT' },
    });
    expect(await s.call('app_uninstall', { packageName: 'com.example.shop', kepData: true })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT' },
    });
    expect(s.asked).toEqual([]);
    expect(s.ran).toEqual([]);
  });

  it('names the near name in the refusal of a call whose declared field is missing', async () => {
    const s = setup();
    expect(await s.call('app_uninstall', { package_name: 'com.example.shop' })).toMatchObject({
      ok: false,
      error: {
        code: 'INVALID_ARGUMENT',
        message:
          'Invalid arguments: missing required argument "packageName". package_name is not a field of ' +
          'app_uninstall; did you mean packageName?',
      },
    });
  });

  it('tells the model which fields were ignored, on every tool, in a success and in a failure', async () => {
    const s = setup();
    const echoed = await s.call('echo_text', { text: 'hi', txet: 'near, but echo_text needs no approval' });
    expect(echoed).toEqual({
      ok: true,
      content: [
        { type: 'text', text: 'echoed hi' },
        { type: 'text', text: 'Ignored: txet is not a field of echo_text and had no effect.' },
      ],
    });
    const uninstalled = await s.call('app_uninstall', { packageName: 'com.example.shop', reason: 'x', when: 1 });
    expect(uninstalled).toMatchObject({
      ok: true,
      content: [
        { text: 'uninstalled' },
        { text: 'Ignored: reason, when are not fields of app_uninstall and had no effect.' },
      ],
    });
  });

  it('says nothing about ignored fields when every field sent is declared', async () => {
    const s = setup();
    expect(await s.call('echo_text', { text: 'hi', count: 2 })).toEqual({
      ok: true,
      content: [{ type: 'text', text: 'echoed hi' }],
    });
  });
});

describe('near names', () => {
  it('are the same letters but for case, _ and -, or a typo away; a short or different name is none', () => {
    const declared = ['packageName', 'keepData', 'serial'];
    expect(nearField('keep_data', declared)).toBe('keepData');
    expect(nearField('KEEP-DATA', declared)).toBe('keepData');
    expect(nearField('pakageName', declared)).toBe('packageName');
    expect(nearField('serail', declared)).toBe('serial');
    expect(nearField('colour', declared)).toBeUndefined();
    expect(nearField('id', declared)).toBeUndefined();
    expect(nearField('dataKeep', declared)).toBeUndefined();
  });
});
