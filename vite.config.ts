/**
 * The renderer build: `renderer/index.html` → `dist/renderer/`. Relative asset URLs, so the
 * same build loads from the Electron shell's `app://desk/` and from the browser host.
 * No inline scripts or styles: the CSP allows only files of the build. The page's CSP `<meta>`
 * is written here (added, or replaced by the canonical one), so editing the page cannot weaken it.
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { CSP_META } from './electron/node/host/csp.js';

function cspMeta(): Plugin {
  return {
    name: 'layover-csp-meta',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const meta = `<meta http-equiv="Content-Security-Policy" content="${CSP_META}" />`;
        const existing = /<meta[^>]+http-equiv=["']Content-Security-Policy["'][^>]*>/i;
        if (existing.test(html)) return html.replace(existing, meta);
        return html.replace(/<head>/i, `<head>\n    ${meta}`);
      },
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('./renderer', import.meta.url)),
  base: './',
  plugins: [react(), cspMeta()],
  build: {
    outDir: fileURLToPath(new URL('./dist/renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
});
