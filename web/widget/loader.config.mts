import { defineConfig } from 'vite';

// The loader: one small script the host page includes (`/widget.js`). It draws the launcher
// and opens the frame; everything else is loaded inside the frame.
export default defineConfig({
  root: import.meta.dirname,
  build: {
    outDir: '../../dist/web/widget-loader',
    emptyOutDir: true,
    target: 'es2019',
    lib: {
      entry: `${import.meta.dirname}/src/loader/index.ts`,
      formats: ['iife'],
      name: 'SupportChatLoader',
      fileName: () => 'widget.js',
    },
  },
});
