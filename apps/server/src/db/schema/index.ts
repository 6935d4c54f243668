export * from './user.js';
export * from './auth.js';
export * from './vip.js';
export * from './notice.js';
export * from './activity.js';
export * from './publish.js';
export * from './writing.js';
export * from './feedback.js';
