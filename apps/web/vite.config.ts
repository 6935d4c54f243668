import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: { '/api': 'http://localhost:3000', '/publish-api': 'http://localhost:3000', '/healthz': 'http://localhost:3000' },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    rolldownOptions: {
      output: {
        // The rich-text engine is only needed by the editors: it gets chunks of its own (cached across
        // releases that do not upgrade it) instead of one 500 kB editor chunk. Only modules the editors
        // import land here, so the home route's initial JS is unchanged.
        codeSplitting: {
          // Only the matched packages: pulling in their dependencies (react, react-dom) would make every
          // route, home included, load these chunks up front.
          includeDependenciesRecursively: false,
          groups: [
            { name: 'prosemirror', test: /[\\/]node_modules[\\/](prosemirror-[\w-]+|orderedmap|rope-sequence|w3c-keyname)[\\/]/, priority: 2 },
            { name: 'tiptap', test: /[\\/]node_modules[\\/](@tiptap[\\/][\w-]+|linkifyjs|use-sync-external-store|fast-equals)[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
});
