import type { ApiBody, ApiPath, ApiPathOf, ApiQuery, ApiReply } from '@inkstone/shared';
import { request, type RequestOptions } from './request';

/**
 * The typed client: every call names a path of `ApiRoutes` (packages/shared), and the query, body and reply types
 * follow from it, so a path the server does not serve, a body it does not take or a reply field it does not send
 * fails to compile. Errors, toasts and login handling are request()'s (spec section 8).
 */

/** The query argument: absent when the route takes none, optional when every field is. */
type QueryArgs<P extends ApiPath> = [ApiQuery<P>] extends [undefined]
  ? [query?: undefined, options?: RequestOptions]
  : object extends ApiQuery<P>
    ? [query?: ApiQuery<P>, options?: RequestOptions]
    : [query: ApiQuery<P>, options?: RequestOptions];

/** Options of a call with a body; `params` is the route's query (POST /notice/read?id=...). */
type BodyOptions<P extends ApiPath> = Omit<RequestOptions, 'params'> & { params?: ApiQuery<P> };
type BodyArgs<P extends ApiPath> = [ApiBody<P>] extends [undefined]
  ? [body?: undefined, options?: BodyOptions<P>]
  : object extends ApiBody<P>
    ? [body?: ApiBody<P>, options?: BodyOptions<P>]
    : [body: ApiBody<P>, options?: BodyOptions<P>];

export const api = {
  get: <P extends ApiPathOf<'GET'>>(path: P, ...[query, options]: QueryArgs<P>) => request<ApiReply<P>>({ ...options, method: 'GET', url: path, params: query }),
  post: <P extends ApiPathOf<'POST'>>(path: P, ...[body, options]: BodyArgs<P>) => request<ApiReply<P>>({ ...options, method: 'POST', url: path, data: body }),
  put: <P extends ApiPathOf<'PUT'>>(path: P, ...[body, options]: BodyArgs<P>) => request<ApiReply<P>>({ ...options, method: 'PUT', url: path, data: body }),
};
