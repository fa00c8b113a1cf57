/**
 * The preload build: `electron/preload.ts` and what it imports from `shared/` → ONE CommonJS
 * file, `dist/preload/preload.cjs`. A sandboxed preload can `require` only a few built-in
 * modules (`electron` among them), never a local file, so everything else is bundled in.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  publicDir: false,
  build: {
    outDir: fileURLToPath(new URL('./dist/preload', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    minify: false,
    sourcemap: false,
    lib: {
      entry: fileURLToPath(new URL('./electron/preload.ts', import.meta.url)),
      formats: ['cjs'],
      fileName: () => 'preload.cjs',
    },
    rollupOptions: {
      external: ['electron'],
    },
  },
});
