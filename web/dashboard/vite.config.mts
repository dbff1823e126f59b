import { defineConfig } from 'vite';

// The agent dashboard, served by the service at `/` (hashed chunks under /assets/).
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  build: {
    outDir: '../../dist/web/dashboard',
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    rollupOptions: {
      // Mantine marks its modules "use client" (a React Server Components hint, meaningless here).
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
});
