export * from './user.js';
export * from './auth.js';
