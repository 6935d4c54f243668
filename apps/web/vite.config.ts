import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  resolve: {
    // The web uses only the constants and helpers of the shared package at run time (its types are erased): the
    // zod-free entry keeps zod and every schema out of the bundle. Importing a schema at run time fails the build.
    alias: [{ find: /^@inkstone\/shared$/, replacement: '@inkstone/shared/web' }],
  },
  server: {
    proxy: { '/api': 'http://localhost:3000', '/publish-api': 'http://localhost:3000', '/healthz': 'http://localhost:3000' },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    rolldownOptions: {
      treeshake: {
        // antd declares its modules side-effect free (but for CSS); the packages it is built on (@rc-component/*, the
        // css-in-js engine, colours) do not say so, so every module an antd entry imports stayed in the bundle even
        // when nothing it exports is used (the form engine and its validator behind every input, for one). They have
        // no import-time side effects: modules whose exports go unused may be dropped.
        moduleSideEffects: [{ test: /[\\/]node_modules[\\/](@rc-component[\\/]|@ant-design[\\/](cssinjs|cssinjs-utils|colors|fast-color)[\\/])/, sideEffects: false }],
      },
      output: {
        // The rich-text engine is only needed by the editors: it gets chunks of its own (cached across
        // releases that do not upgrade it) instead of one 500 kB editor chunk. Only modules the editors
        // import land here, so the home route's initial JS is unchanged.
        codeSplitting: {
          // Only the matched packages: pulling in their dependencies (react, react-dom) would make every
          // route, home included, load these chunks up front.
          includeDependenciesRecursively: false,
          groups: [
            // Everything index.html loads up front goes into the entry chunk: one file instead of about thirty small
            // shared ones (their import glue and separate gzip windows cost ~17 KB gz on the home route). Lazy routes
            // import what they share with it from the entry, which is always loaded.
            { name: 'initial', tags: ['$initial'], priority: 3 },
            { name: 'prosemirror', test: /[\\/]node_modules[\\/](prosemirror-[\w-]+|orderedmap|rope-sequence|w3c-keyname)[\\/]/, priority: 2 },
            { name: 'tiptap', test: /[\\/]node_modules[\\/](@tiptap[\\/][\w-]+|linkifyjs|use-sync-external-store|fast-equals)[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
});
