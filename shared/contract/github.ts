/**
 * Whether GitHub is set up (never the token, which is write-only). Part of the contract
 * (shared/contract.ts).
 */
import { z } from 'zod';

/** Whether GitHub is set up: never the token itself, which is write-only. */
export const GithubStatus = z.object({
  tokenSet: z.boolean(),
  /** env: TOOLGATE_GITHUB_TOKEN (it wins over a stored one); stored: set here. */
  source: z.enum(['env', 'stored', 'none']),
  storage: z.string(),
  /**
   * Said plainly when a token set here is not kept in the OS keychain although the app runs on a desktop (no keyring).
   */
  storageWarning: z.string().optional(),
  apiUrl: z.string(),
  /** The seven GitHub tools are in the catalog. */
  registered: z.boolean(),
});
export type GithubStatus = z.infer<typeof GithubStatus>;
