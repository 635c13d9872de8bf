/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

// codemirror-json-schema's markdown renderer pulls in markdown-it and shiki (~600 kB) for hover
// text: the suite editor uses a small one of its own (src/evals/schemaMarkdown.ts).
const schemaMarkdown = {
  name: 'schema-markdown-lite',
  enforce: 'pre' as const,
  resolveId(source: string, importer?: string) {
    if (source === '../utils/markdown' && importer?.includes('codemirror-json-schema')) return fileURLToPath(new URL('./src/evals/schemaMarkdown.ts', import.meta.url));
    return null;
  },
};

// The Rust server serves dist/ from `/`; relative asset paths keep the bundle location-free.
const target = `http://127.0.0.1:${process.env.MCPLAB_PORT || 6274}`;

export default defineConfig({
  base: './',
  plugins: [react(), schemaMarkdown],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    // mcplab checks Host and Origin (DNS rebinding, CSRF): present the proxied requests as
    // its own origin.
    proxy: Object.fromEntries(
      ['/api', '/auth'].map((p) => [
        p,
        {
          target,
          changeOrigin: true,
          configure: (proxy: { on: (ev: 'proxyReq', f: (req: { getHeader(n: string): unknown; setHeader(n: string, v: string): void }) => void) => void }) => {
            proxy.on('proxyReq', (req) => {
              if (req.getHeader('origin')) req.setHeader('origin', target);
            });
          },
        },
      ]),
    ),
  },
  test: {
    // codemirror-json-schema's ESM imports its files without extensions, which node's loader
    // refuses: vite transforms it instead (the suite editor's completion is unit-tested).
    server: { deps: { inline: ['codemirror-json-schema'] } },
    // Pure logic runs in node; component tests (`*.test.tsx`) render into jsdom with
    // @testing-library/react.
    projects: [
      { extends: true, test: { name: 'unit', environment: 'node', include: ['src/**/*.test.ts'] } },
      { extends: true, test: { name: 'components', environment: 'jsdom', include: ['src/**/*.test.tsx'], setupFiles: ['src/test/setup.ts'] } },
    ],
  },
});
