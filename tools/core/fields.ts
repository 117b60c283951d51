/**
 * Input fields several families share, worded once (docs/adding-a-tool.md#schemas-and-descriptions):
 * a model reads the same words for the same thing in every tool, and each tool pays for them once.
 * Each is a zod schema to use as is, or narrowed (`.max()`) or given a default where a tool needs it.
 */
import { z } from 'zod';

/** A file or folder inside the workspace folder, as the file tools take it. */
export const WORKSPACE_PATH = z.string().max(4096).describe('In the workspace.');

/** A folder to start from inside the workspace; `.` is the workspace itself. */
export const WORKSPACE_DIR = z.string().max(4096).default('.').describe('In the workspace.');

/** How long to wait before giving up, in milliseconds, between `min` and `max`: its name says all of it. */
export function timeoutMs(min: number, max: number) {
  return z.number().int().min(min).max(max);
}

/** An http or https URL. */
export const HTTP_URL = z.string().min(1).max(8192).describe('An http:// or https:// URL.');

/**
 * Any JSON value. Spelled out (a string, number, boolean, null, array or object) rather than left
 * as `{}`, which some clients refuse and which tells a model nothing.
 */
export const JSON_VALUE = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.unknown()),
  z.record(z.string(), z.unknown()),
]);

/** Named values for a call: an object whose values are any JSON. */
export const ARGUMENTS = z.record(z.string(), z.unknown());
