/**
 * The terminal family's toolsets: `terminal` opens terminals and drives them; `terminal-linux`
 * prepares the sandbox's Linux root file systems (bootstrap, packages, network), which a model needs
 * only to set a sandbox up.
 */
import { defineToolset } from '../core/toolset';

export const TERMINAL_TOOLSET = defineToolset(
  'terminal',
  'Interactive terminals (sandbox, this machine, a phone): run commands, type keys, read the screen.',
);

export const TERMINAL_LINUX_TOOLSET = defineToolset(
  'terminal-linux',
  "Set up the sandbox terminals' Linux root file systems: Debian or Ubuntu, packages, network.",
);
