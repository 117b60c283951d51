/** Skills the tests install: SKILL.md texts with declared tools over the host's own, offline tools. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { skillMd } from './archives';

/** A skill whose one tool upper-cases a text and then counts it: two offline steps. */
export function shoutSkill(name = 'shout-kit', description = 'Shouts a text and counts its words.'): string {
  return skillMd(
    `name: ${name}
description: ${description}
license: Apache-2.0
metadata:
  author: tests
tools:
  - name: shout
    description: Upper-cases a text, then counts its words.
    params:
      - { name: text, type: string, description: The text to shout }
    steps:
      - { tool: text_transform, args: { operation: upper, text: "{text}" } }
      - { tool: text_transform, args: { operation: count, text: "{text}" } }`,
    `# Shout kit\n\nUse skill_${name}_shout to shout.\n`,
  );
}

/** Writes `files` (path → text) under `root`. */
export function writeTree(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    const target = join(root, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
}
