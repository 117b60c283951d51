/**
 * Field paths for json_transform: `a.b[0].c`, an optional leading dot (`.a.b`, jq style), and
 * `["odd key"]` for keys with dots or spaces. `""` or `.` is the value itself.
 *
 * Written here rather than taken from jsonpath-plus because a field path names exactly one value
 * (missing → undefined), while JSONPath is a query that returns a list of matches; the parser is
 * a few dozen lines and its errors can point at the exact character.
 */

export type PathSegment = string | number;

export class FieldPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FieldPathError';
  }
}

const IDENT_CHAR = /[A-Za-z0-9_$-]/;

export function parseFieldPath(path: string): PathSegment[] {
  const text = path.trim();
  const segments: PathSegment[] = [];
  let i = text.startsWith('.') ? 1 : 0;
  if (text === '.' || text === '') return segments;
  let expectKey = true;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '[') {
      const close = text.indexOf(']', i);
      if (close < 0) throw new FieldPathError(`unclosed '[' at position ${i} in path '${path}'`);
      const inner = text.slice(i + 1, close).trim();
      if (/^\d+$/.test(inner)) segments.push(Number(inner));
      else if (/^"(?:[^"\\]|\\.)*"$/.test(inner)) segments.push(JSON.parse(inner) as string);
      else
        throw new FieldPathError(
          `'[${inner}]' in path '${path}' must be an index like [0] or a quoted key like ["a.b"]`,
        );
      i = close + 1;
      expectKey = false;
    } else if (ch === '.') {
      if (expectKey) throw new FieldPathError(`empty field name at position ${i} in path '${path}'`);
      i++;
      expectKey = true;
    } else if (ch !== undefined && IDENT_CHAR.test(ch)) {
      if (!expectKey) throw new FieldPathError(`expected '.' or '[' at position ${i} in path '${path}'`);
      let end = i;
      while (end < text.length && IDENT_CHAR.test(text[end] ?? '')) end++;
      segments.push(text.slice(i, end));
      i = end;
      expectKey = false;
    } else {
      throw new FieldPathError(
        `unexpected '${ch}' at position ${i} in path '${path}'; use ["…"] for keys with special characters`,
      );
    }
  }
  if (expectKey) throw new FieldPathError(`path '${path}' ends with '.'`);
  return segments;
}

/** The value at a path, or undefined when any step of the way is missing. */
export function valueAt(value: unknown, segments: readonly PathSegment[]): unknown {
  let current: unknown = value;
  for (const segment of segments) {
    if (typeof segment === 'number') {
      if (!Array.isArray(current)) return undefined;
      current = current[segment];
    } else {
      if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
      if (!Object.hasOwn(current, segment)) return undefined;
      current = (current as Record<string, unknown>)[segment];
    }
  }
  return current;
}
