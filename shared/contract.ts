/**
 * The contract between the host and the renderer. Everything that crosses IPC (Electron) or
 * HTTP/WebSocket (headless) is declared here once as a zod schema; both sides derive their types
 * from it. This module imports only zod.
 */
import { z } from 'zod';

export const HostInfo = z.object({
  version: z.string(),
  mode: z.enum(['electron', 'headless']),
  mcpUrl: z.string(),
  dataDir: z.string(),
});
export type HostInfo = z.infer<typeof HostInfo>;
