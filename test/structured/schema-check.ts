/** Finds input fields without a description, at any depth of a rendered JSON Schema. */
type Schema = Record<string, unknown>;

export function undescribedFields(schema: Schema, path = ''): string[] {
  const missing: string[] = [];
  const props = schema.properties as Record<string, Schema> | undefined;
  for (const [name, sub] of Object.entries(props ?? {})) {
    const here = path ? `${path}.${name}` : name;
    if (typeof sub.description !== 'string' || sub.description.length < 5) missing.push(here);
    missing.push(...undescribedFields(sub, here));
  }
  const items = schema.items as Schema | undefined;
  if (items) missing.push(...undescribedFields(items, `${path}[]`));
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    for (const option of (schema[key] as Schema[] | undefined) ?? []) missing.push(...undescribedFields(option, path));
  }
  return missing;
}
