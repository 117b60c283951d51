/**
 * MCP client tokens as the person sees them (never the token itself). Part of the contract
 * (shared/contract.ts).
 */
import { z } from 'zod';

/** An MCP client's token as the person sees it: never the token itself, which is shown once, when created. */
export const ClientToken = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.number(),
  /** The token's last characters, to tell which config holds which token. */
  hint: z.string(),
  /** The data dir's token (or TOOLGATE_TOKEN), which the stdio bridge reads; it cannot be revoked here. */
  isDefault: z.boolean(),
  openSessions: z.number().int().min(0),
  /** The toolsets this client's token allows. */
  toolsets: z.array(z.string()),
});
export type ClientToken = z.infer<typeof ClientToken>;
export const ClientTokenName = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .regex(/^[A-Za-z0-9][\w .@-]*$/, 'letters, digits, spaces and . _ @ - only, starting with a letter or digit')
  .refine((name) => name.toLowerCase() !== 'default', "'default' is the data dir's token");
