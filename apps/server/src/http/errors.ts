import { ErrorCode, errorMessages } from '@inkstone/shared';

/** A failure the client should see: becomes `{code, msg, data}` with HTTP 200. */
export class AppError extends Error {
  constructor(
    readonly code: number,
    msg?: string,
    readonly data: unknown = null,
  ) {
    super(msg ?? errorMessages[code] ?? '操作失败');
  }
}

export const appError = (code: number, msg?: string, data?: unknown) => new AppError(code, msg, data ?? null);
export const notLoggedIn = () => new AppError(ErrorCode.NOT_LOGGED_IN);
