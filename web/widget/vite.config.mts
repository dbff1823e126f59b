import { defineConfig } from 'vite';

// The chat frame: an app of the service's own origin, loaded by the loader in an iframe.
// Hashed chunks under /widget/assets/ are cached for a year by the service.
export default defineConfig({
  root: import.meta.dirname,
  base: '/widget/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: '../../dist/web/widget',
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    rollupOptions: { input: { frame: `${import.meta.dirname}/frame.html` } },
  },
});
