/**
 * The toolsets a client gets when a person chose none: the default profile (a phone and the
 * orchestration tools), and the toolset every MCP session has on, whose three tools list, describe
 * and turn on the others.
 */
import { defineToolset } from '../../core/toolset';

export const DEFAULT_PROFILE: readonly string[] = Object.freeze(['device', 'orchestration']);

export const TOOLSETS_TOOLSET = defineToolset(
  'toolsets',
  'List, describe and turn on toolsets for this session; always on.',
);
