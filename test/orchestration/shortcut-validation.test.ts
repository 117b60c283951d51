/**
 * Rule (docs/architecture.md#shortcuts): a shortcut is fully validated when it is defined, and
 * every problem is refused with the field it is in — id namespace, unknown tool, undeclared
 * `{param}`, unused (dead) parameter, more than 16 steps, forward `{n}` references, composite steps
 * — so nothing broken is ever registered or saved.
 */
import { describe, expect, it } from 'vitest';
import { validateShortcut } from '../../tools/orchestration';
import { errorOf, makeKit } from './fixtures';

const valid = {
  id: 'shortcut.greet',
  description: 'Greets someone.',
  params: [{ name: 'who', type: 'string', description: 'Whom to greet.' }],
  steps: [{ tool: 'echo_text', args: { text: 'hello {who}' } }],
};

function issuesOf(raw: unknown) {
  const kit = makeKit();
  const checked = validateShortcut(raw, kit.registry);
  if (checked.ok) throw new Error('expected the definition to be refused');
  return checked.issues;
}

describe('shortcut validation refuses, naming the field', () => {
  it('refuses an id outside the shortcut namespace', () => {
    expect(issuesOf({ ...valid, id: 'greet' }).map((i) => i.field)).toEqual(['id']);
    expect(issuesOf({ ...valid, id: 'shortcut.Greet-Me' }).map((i) => i.field)).toEqual(['id']);
  });

  it('refuses an unknown tool and suggests near names', () => {
    const issues = issuesOf({ ...valid, steps: [{ tool: 'echo_txt', args: { text: '{who}' } }] });
    expect(issues).toEqual([{ field: 'steps[0].tool', message: "unknown tool 'echo_txt'; did you mean echo_text?" }]);
  });

  it('refuses a placeholder that is not a declared parameter', () => {
    const issues = issuesOf({ ...valid, steps: [{ tool: 'echo_text', args: { text: 'hello {who} from {where}' } }] });
    expect(issues.map((i) => i.field)).toEqual(['steps[0].args.text']);
    expect(issues[0]?.message).toContain('{where} is not a declared parameter (declared: who)');
  });

  it('refuses a declared parameter that no step uses', () => {
    const issues = issuesOf({
      ...valid,
      params: [...valid.params, { name: 'unused', type: 'number', description: 'Dead.' }],
    });
    expect(issues.map((i) => i.field)).toEqual(['params[1].name']);
    expect(issues[0]?.message).toContain("parameter 'unused' is declared but no step uses it");
  });

  it('refuses more than 16 steps', () => {
    const steps = Array.from({ length: 17 }, () => ({ tool: 'echo_text', args: { text: '{who}' } }));
    const issues = issuesOf({ ...valid, steps });
    expect(issues.map((i) => i.field)).toEqual(['steps']);
    expect(issues[0]?.message).toContain('at most 16 steps');
  });

  it('refuses a forward or out-of-range step reference', () => {
    const issues = issuesOf({
      ...valid,
      steps: [
        { tool: 'echo_text', args: { text: '{who} {1}' } },
        { tool: 'record_args', args: { x: '{9}' } },
      ],
    });
    expect(issues.map((i) => i.field)).toEqual(['steps[0].args.text', 'steps[1].args.x']);
  });

  it('refuses composite tools as steps, including another shortcut', () => {
    const issues = issuesOf({
      ...valid,
      steps: [
        { tool: 'echo_text', args: { text: '{who}' } },
        { tool: 'tool_batch_run', args: {} },
        { tool: 'shortcut.other', args: {} },
        { tool: 'shortcut_run', args: {} },
      ],
    });
    expect(issues.map((i) => i.field)).toEqual(['steps[1].tool', 'steps[2].tool', 'steps[3].tool']);
  });

  it('refuses a composite tool named by its published name, and a skill tool', async () => {
    const kit = makeKit();
    const defined = await kit.run('shortcut_define', { ...valid, id: 'shortcut.inner' });
    expect(defined.ok).toBe(true);
    const checked = validateShortcut(
      {
        ...valid,
        steps: [
          { tool: 'echo_text', args: { text: '{who}' } },
          { tool: 'shortcut_inner', args: { who: 'x' } },
          { tool: 'skill.any.tool' },
        ],
      },
      kit.registry,
    );
    expect(checked.ok || checked.issues).toEqual([
      {
        field: 'steps[1].tool',
        message: "a shortcut cannot call 'shortcut.inner'; list the underlying tool calls as steps instead",
      },
      {
        field: 'steps[2].tool',
        message: "a shortcut cannot call 'skill.any.tool'; list the underlying tool calls as steps instead",
      },
    ]);
  });

  it('refuses a bad parameter name, a duplicate, and a default of the wrong type', () => {
    const issues = issuesOf({
      ...valid,
      params: [
        { name: 'who', type: 'string', description: 'Whom.' },
        { name: 'who', type: 'string', description: 'Again.' },
        { name: '2x', type: 'number', description: 'Bad name.' },
        { name: 'n', type: 'number', description: 'Count.', default: 'three' },
      ],
      steps: [{ tool: 'echo_text', args: { text: '{who} {n}' } }],
    });
    expect(issues.map((i) => i.field)).toEqual(['params[1].name', 'params[2].name', 'params[3].default']);
  });

  it('reports a shape error with its path', () => {
    const issues = issuesOf({ ...valid, params: [{ name: 'who', type: 'date', description: 'x' }] });
    expect(issues.map((i) => i.field)).toEqual(['params[0].type']);
  });

  it('lists every problem of a definition at once', () => {
    const issues = issuesOf({
      id: 'greet',
      description: 'x',
      params: [{ name: 'dead', type: 'string', description: 'x' }],
      steps: [{ tool: 'nope', args: { a: '{ghost}' } }],
    });
    expect(issues.map((i) => i.field).sort()).toEqual(['id', 'params[0].name', 'steps[0].args.a', 'steps[0].tool']);
  });

  it('returns the refusal from shortcut_define as INVALID_ARGUMENT with the fields; registers nothing', async () => {
    const kit = makeKit();
    const error = errorOf(await kit.run('shortcut_define', { ...valid, id: 'greet' }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.data?.fields).toEqual(['id']);
    expect(kit.store.list()).toEqual([]);
    expect(kit.registry.has('greet')).toBe(false);
  });
});

describe('shortcut validation accepts', () => {
  it('accepts a valid definition, with literal JSON text in arguments', () => {
    const kit = makeKit();
    const checked = validateShortcut(
      { ...valid, steps: [{ tool: 'record_args', args: { body: '{"a": 1}', who: '{who}' } }] },
      kit.registry,
    );
    expect(checked.ok).toBe(true);
  });
});
