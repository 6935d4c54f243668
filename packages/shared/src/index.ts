export * from './errors.js';
export * from './limits.js';
export * from './time-ago.js';
export * from './panel-width.js';
export * from './api/common.js';
export * from './api/auth.js';
export * from './api/user.js';
