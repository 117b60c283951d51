/** The GitHub family's toolset: its seven tools, there only while a GitHub token is set. */
import { defineToolset } from '../core/toolset';

export const GITHUB_TOOLSET = defineToolset(
  'github',
  'GitHub as the token allows: the user, repositories, files, issues, code search.',
);
