/**
 * Where a waiting call comes from, in words: the MCP client and its session, a step of a batch or
 * a shortcut (and who asked for that), the UI itself or a replay of an earlier call; and the client a session belongs
 * to, which the page groups by.
 */
import { shortId } from '../../components/format';

interface Caller {
  kind: string;
  id?: string | undefined;
  label?: string | undefined;
}

interface Origin extends Caller {
  step?: number | undefined;
  via?: Caller | undefined;
}

function callerWords(c: Caller): string {
  switch (c.kind) {
    case 'mcp':
      return `MCP client ${c.label ?? '(unnamed)'}${c.id ? ` in session ${c.id}` : ''}`;
    case 'ui':
      return `the Toolgate UI${c.label ? ` (${c.label})` : ''}`;
    case 'batch':
      return `a batch${c.id ? ` (call ${shortId(c.id)})` : ''}`;
    case 'shortcut':
      return `${c.label ?? 'a shortcut'}${c.id ? ` (call ${shortId(c.id)})` : ''}`;
    case 'replay':
      return `a person in the Toolgate UI, running ${c.id ? `call ${shortId(c.id)}` : 'an earlier call'} again`;
    default:
      return c.id ? `a call made by call ${shortId(c.id)}` : 'Toolgate itself';
  }
}

/** "MCP client claude-code 1.0 in session claude#3", "step 2 of a batch (call 9f2c…), asked by …". */
export function describeOrigin(r: Origin): string {
  if ((r.kind === 'batch' || r.kind === 'shortcut') && r.step !== undefined) {
    const of = r.kind === 'batch' ? `a batch${r.id ? ` (call ${shortId(r.id)})` : ''}` : callerWords(r);
    return `step ${r.step} of ${of}${r.via ? `, asked by ${callerWords(r.via)}` : ''}`;
  }
  return callerWords(r);
}

/** The client a session label names: `claude#3` → claude; the UI's session → UI. */
export function clientOf(sessionId: string): string {
  if (sessionId === 'ui') return 'UI';
  const hash = sessionId.lastIndexOf('#');
  return hash > 0 ? sessionId.slice(0, hash) : sessionId || 'local';
}
