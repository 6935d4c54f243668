import { ErrorCode, type AdminMe } from '@inkstone/shared';
import { api } from './client';

export type { AdminMe };

/**
 * The one console call the main bundle carries: whether the signed-in user holds a console role. Everything else the
 * console calls lives in `pages/admin/admin-api.ts`, inside the console's own chunk, so a normal user downloads none
 * of it. A refusal is an answer here, not an error to toast: the gate shows it in place.
 */
export const adminMe = () => api.get('/admin/me', undefined, { quietCodes: [ErrorCode.ADMIN_FORBIDDEN, ErrorCode.ADMIN_REAUTH_REQUIRED] });
