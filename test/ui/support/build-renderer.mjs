// Builds the renderer into the folder given as the only argument, with the plugins of
// electron.vite.config.ts and a production bundle (what ships). A plain Node ES module run in its
// own process: Vite's resolver misreads its own virtual modules under a TypeScript loader (tsx),
// so the benchmarks could not build in-process, and one build path serves tests and benchmarks.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build } from 'vite';

const outDir = process.argv[2];
if (!outDir) {
  console.error('usage: node build-renderer.mjs OUT_DIR');
  process.exit(2);
}
process.env.NODE_ENV = 'production';
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'renderer');
await build({
  configFile: false,
  root,
  base: './',
  plugins: [react()],
  logLevel: 'warn',
  mode: 'production',
  build: { outDir, emptyOutDir: true, reportCompressedSize: false, chunkSizeWarningLimit: 4_000 },
});
