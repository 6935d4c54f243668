import { beforeAll, describe, expect, expectTypeOf, it, vi } from 'vitest';
import type { DraftDetail, UserScore } from '@inkstone/shared';
import { api } from './client';
import type { HttpAdapter, HttpConfig } from './http';

// request() reads sparkNavigate from the address; the unit project runs in node.
beforeAll(() => {
  vi.stubGlobal('window', { location: { search: '' } });
  vi.stubGlobal('fetch', () => Promise.resolve(new Response(null)));
});

/** Answers `data` in the envelope and keeps the request it saw. */
function capture(data: unknown) {
  const seen: HttpConfig[] = [];
  const adapter: HttpAdapter = async (config) => {
    seen.push(config);
    return { data: { code: 0, msg: 'ok', data }, status: 200, headers: {} };
  };
  return { adapter, seen };
}

describe('typed client', () => {
  it('sends the query of a GET and the body of a POST to the path named', async () => {
    const g = capture({ score: 5, totalScore: 9 });
    const score = await api.get('/vip/user/score', undefined, { adapter: g.adapter });
    expect(score).toEqual({ score: 5, totalScore: 9 });
    expect(g.seen[0]).toMatchObject({ method: 'get', url: '/vip/user/score' });

    const d = capture({ records: [], total: 0, pageNum: 2, pageSize: 5 });
    await api.get('/writing/draft/list', { pageNum: 2, pageSize: 5 }, { adapter: d.adapter });
    expect(d.seen[0]?.params).toEqual({ pageNum: 2, pageSize: 5 });

    const p = capture(null);
    await api.post('/writing/draft/delete', { id: 7 }, { adapter: p.adapter });
    expect(p.seen[0]).toMatchObject({ method: 'post', url: '/writing/draft/delete' });
    expect(JSON.parse(String(p.seen[0]?.data))).toEqual({ id: 7 });

    // A POST whose route reads the query (notice/read?id=) takes it as params.
    const q = capture(null);
    await api.post('/notice/read', undefined, { params: { id: '3' }, adapter: q.adapter });
    expect(q.seen[0]?.params).toEqual({ id: '3' });
  });

  it('types the reply by path and refuses wrong paths, methods and bodies at compile time', () => {
    expectTypeOf(api.get<'/vip/user/score'>).returns.resolves.toEqualTypeOf<UserScore>();
    expectTypeOf(api.post<'/writing/draft/save'>).returns.resolves.toEqualTypeOf<DraftDetail>();

    // Never called: these lines exist for tsc (`npm run lint`), which fails if any of them compiles.
    const mustNotCompile = () => {
      // @ts-expect-error a path the server does not serve
      void api.get('/vip/user/scores');
      // @ts-expect-error a GET path called with POST
      void api.post('/vip/user/score');
      // @ts-expect-error a body field the route does not take
      void api.post('/writing/draft/delete', { draftId: 7 });
      // @ts-expect-error a body field of the wrong type
      void api.post('/writing/draft/delete', { id: 'seven' });
      // @ts-expect-error a required body left out
      void api.post('/feedback/submit');
      // @ts-expect-error a query field the route does not read
      void api.get('/writing/draft/list', { page: 1 });
    };
    expect(typeof mustNotCompile).toBe('function');
  });
});
