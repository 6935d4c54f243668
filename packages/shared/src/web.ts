/**
 * What the web app may use at run time from this package: everything except the zod schemas. The web build resolves
 * `@inkstone/shared` here (apps/web/vite.config.ts), so the browser never downloads zod or the schema definitions;
 * types still come from the full index. A web import of a schema at run time fails the build with a missing export.
 */
export * from './errors.js';
export * from './limits.js';
export * from './time-ago.js';
export * from './panel-width.js';
export * from './markdown.js';
export * from './points.js';
export * from './constants/index.js';
