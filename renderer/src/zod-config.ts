/**
 * Imported first by main.tsx, before any schema is built: the page's CSP forbids eval, and zod
 * would otherwise probe for it (logging a CSP violation) when the contract's schemas are created.
 */
import { z } from 'zod';

z.config({ jitless: true });
