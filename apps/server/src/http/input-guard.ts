import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '@inkstone/shared';
import { AppError } from './errors.js';

/** Deepest JSON body accepted: our schemas nest a few levels; thousands of levels only overflow the stack later. */
export const maxJsonDepth = 64;

const sourceLabel = { params: '路径参数', query: '查询参数', body: '请求体' } as const;
type Source = keyof typeof sourceLabel;

type BadText = 'nul' | 'surrogate';

/** NUL, which PostgreSQL cannot store in text or jsonb; a lone UTF-16 surrogate, which is not Unicode text at all. */
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const badText = (s: string): BadText | null => (s.includes('\0') ? 'nul' : loneSurrogate.test(s) ? 'surrogate' : null);

const badTextMessage: Record<BadText, string> = { nul: '不能包含空字符', surrogate: '包含无效的字符' };

/**
 * The first string (or object key) PostgreSQL would refuse, as a dotted field path, or null: such input must stop
 * here with a validation error rather than fail inside a query. Iterative on purpose: the input decides the depth.
 */
export function findBadText(value: unknown): { path: string; kind: BadText } | null {
  const stack: Array<{ v: unknown; path: string }> = [{ v: value, path: '' }];
  while (stack.length > 0) {
    const { v, path } = stack.pop()!;
    if (typeof v === 'string') {
      const kind = badText(v);
      if (kind) return { path, kind };
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) stack.push({ v: v[i], path: path ? `${path}.${i}` : String(i) });
    } else if (v !== null && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        // A key is the caller's text too; name the object that holds it rather than echo it.
        const kind = badText(k);
        if (kind) return { path, kind };
        stack.push({ v: child, path: path ? `${path}.${k}` : k });
      }
    }
  }
  return null;
}

/** Nesting depth of parsed JSON (a scalar is 0, `{}` is 1), stopping as soon as it passes `limit`. */
export function jsonDepthOver(value: unknown, limit: number): boolean {
  const stack: Array<{ v: unknown; depth: number }> = [{ v: value, depth: 0 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push({ v: child, depth: depth + 1 });
    }
  }
  return false;
}

export const tooDeep = () => new AppError(ErrorCode.VALIDATION, `请求体：嵌套层级不能超过${maxJsonDepth}层`, { field: '请求体', source: 'body' });

/** Refuses NUL and broken Unicode anywhere in the path parameters, query or body of every route, before validation. */
export function installInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const inputs: Record<Source, unknown> = { params: request.params, query: request.query, body: request.body };
    for (const source of Object.keys(inputs) as Source[]) {
      const hit = findBadText(inputs[source]);
      if (!hit) continue;
      // Keys come from the caller: a path too long to be one of our fields is named by its source instead.
      const field = hit.path && hit.path.length <= 64 ? hit.path : sourceLabel[source];
      throw new AppError(ErrorCode.VALIDATION, `${field}：${badTextMessage[hit.kind]}`, { field, source: source === 'query' ? 'querystring' : source });
    }
  });
}
