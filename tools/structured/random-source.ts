/**
 * Random numbers for random_generate: from node:crypto by default, or from a seeded generator when
 * the caller wants a reproducible sequence. node:crypto has no seedable generator and no seeded
 * PRNG package is installed, so the small sfc32 generator (public domain, passes PractRand) is
 * written here, seeded from SHA-256 of the seed text.
 */
import { createHash, randomBytes } from 'node:crypto';

export interface RandomSource {
  /** A uniformly distributed integer in [0, 2^32). */
  uint32(): number;
}

export function seededSource(seed: string): RandomSource {
  const digest = createHash('sha256').update(seed).digest();
  let a = digest.readUInt32LE(0);
  let b = digest.readUInt32LE(4);
  let c = digest.readUInt32LE(8);
  let d = digest.readUInt32LE(12);
  const next = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) next();
  return { uint32: next };
}

export function cryptoSource(): RandomSource {
  let pool = randomBytes(0);
  let offset = 0;
  return {
    uint32() {
      if (offset + 4 > pool.length) {
        pool = randomBytes(1024);
        offset = 0;
      }
      const v = pool.readUInt32LE(offset);
      offset += 4;
      return v;
    },
  };
}

const TWO_32 = 2 ** 32;
const TWO_53 = 2 ** 53;

/** 53 random bits as an integer in [0, 2^53). */
function uint53(src: RandomSource): number {
  return (src.uint32() >>> 11) * TWO_32 + src.uint32();
}

/** A float in [0, 1) with 53 bits of precision. */
export function randomFloat(src: RandomSource): number {
  return uint53(src) / TWO_53;
}

/** An integer in [min, max], without modulo bias (rejection sampling). */
export function randomInt(src: RandomSource, min: number, max: number): number {
  const range = max - min + 1;
  if (range <= TWO_32) {
    const limit = Math.floor(TWO_32 / range) * range;
    for (;;) {
      const v = src.uint32();
      if (v < limit) return min + (v % range);
    }
  }
  const limit = Math.floor(TWO_53 / range) * range;
  for (;;) {
    const v = uint53(src);
    if (v < limit) return min + (v % range);
  }
}

/** Fisher–Yates on a copy. */
export function shuffled<T>(src: RandomSource, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(src, 0, i);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
