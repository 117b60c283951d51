/**
 * Where an installed app's APK lives, by Android release, as AOSP PackageManagerService
 * `getNextCodePath` names the directory:
 * - before Android 8: `/data/app/PKG-1` (a counter: `packageName + "-" + suffix`, suffix 1, 2, …);
 * - Android 8–10: `/data/app/PKG-RANDOM==` (16 SecureRandom bytes, `Base64.URL_SAFE | NO_WRAP`);
 * - Android 11+: `/data/app/~~RANDOM==/PKG-RANDOM==` (`RANDOM_DIR_PREFIX = "~~"` for a first-level
 *   directory of its own, then the 8–10 name inside it; now in PackageManagerServiceUtils).
 * The APK is `base.apk` in it. The random bytes here come from a hash of the package name and the
 * install's sequence number, so that a run is repeatable and every install gets a new directory.
 */
import { createHash } from 'node:crypto';

/** Java's URL-safe Base64 of 16 bytes keeps its padding: 22 characters and "==". */
function randomName(seed: string): string {
  return `${createHash('sha256').update(seed).digest().subarray(0, 16).toString('base64url')}==`;
}

export function appCodePath(root: string, packageName: string, sdk: number, install: number): string {
  if (sdk < 26) return `${root}/${packageName}-1`;
  const inner = `${packageName}-${randomName(`${packageName}\0${install}\0name`)}`;
  if (sdk < 30) return `${root}/${inner}`;
  return `${root}/~~${randomName(`${packageName}\0${install}\0dir`)}/${inner}`;
}
