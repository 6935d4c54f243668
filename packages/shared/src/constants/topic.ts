// Constants of the topic contract that the web uses at run time, kept free of zod so the web bundle need not load it.
import { creationPlatforms } from './user.js';

export const sysTrackSelectMax = 20;

export const userTrackMax = 10;

export const anglePlatforms = creationPlatforms.filter((p) => p !== 'other');
