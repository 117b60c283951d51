import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // The Electron main process, the `toolgate` command (bin/toolgate.cjs runs out/main/cli.js), and the
      // CPU worker, which runs in its own thread from its own file found next to index.js (tools/common/cpu-pool.ts).
      lib: {
        entry: {
          index: resolve(__dirname, 'electron/main/index.ts'),
          cli: resolve(__dirname, 'tools/host/cli.ts'),
          'cpu-worker': resolve(__dirname, 'tools/common/cpu-worker.ts'),
        },
      },
      // Native and heavy Node dependencies stay external: they are loaded from node_modules at run time.
      externalizeDeps: true,
      // Shared chunks sit beside the entries: the host finds bin/ and out/renderer from its __dirname.
      rolldownOptions: { output: { chunkFileNames: '[name]-[hash].js' } },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      lib: { entry: resolve(__dirname, 'electron/preload/index.ts') },
    },
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      minify: true,
      rollupOptions: { input: resolve(__dirname, 'renderer/index.html') },
    },
  },
});
