import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, TOKEN_NAME } from '@inkstone/shared';
import { nextIp, startTestApp, type TestApp } from '../test/app.js';
import { loginByPhone } from '../test/auth-helpers.js';
import { testDbKinds } from '../test/database.js';

/**
 * Walks every operation of /api/docs/json and sends it malformed input, with and without a valid token. Every
 * answer must be the envelope (HTTP 200), never 999, with a Chinese message when it fails, and the server must
 * still be healthy afterwards.
 */

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  minimum?: number;
  minLength?: number;
  format?: string;
  default?: unknown;
};
interface Parameter {
  in: 'query' | 'path' | 'header';
  name: string;
  schema?: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  security?: unknown[];
}
type Doc = { paths: Record<string, Record<string, Operation>> };

/**
 * Operations that start real, slow work (a browser, a model call, a render) when their input happens to be valid:
 * only whole-request malformations are sent to them, which can never be valid. Logging out and deleting the
 * account would end the session the rest of the suite uses: they get no token.
 */
const heavy = new Set([
  'POST /api/mp/task/create',
  'POST /api/writing/ability/create',
  'POST /api/writing/title/generate',
  'POST /api/graphic/cover',
  'POST /api/publish/v4/account/bind',
  'POST /publish-api/chrome/login/connect',
  'GET /publish-api/chrome/login/connection',
  'GET /publish-api/chrome/login/code/scan',
  'GET /publish-api/chrome/login/cookie',
  'POST /publish-api/publish/article',
  'POST /publish-api/publish/passthrough',
  'GET /api/material/v3/image/search',
  'GET /api/mp/task/stream/{taskId}',
]);
// Signing out, revoking a login device (the suite's own session may be the id tried) and deleting the account end the session the suite runs on.
const noToken = new Set(['GET /api/auth/logout', 'POST /api/auth/delete/v2', 'POST /api/auth/sessions/revoke']);
/** GrowthBook's SDK reads `{features}` as it is: success is not wrapped (failures still are). */
const rawSuccess = new Set(['/api/features', '/api/features/{clientKey}', '/api/eval/{clientKey}']);
/** The envelope is the API's promise; the sandbox creator site imitates a third-party site and answers like one. */
const isApi = (path: string) => path.startsWith('/api/') || path.startsWith('/publish-api/');

const hasChinese = /[\u4e00-\u9fff]/;

/** A plausible value for a schema: the mutations below then break one part of an otherwise ordinary request. */
function sample(s: Schema | undefined, depth = 0): unknown {
  if (!s || depth > 6) return 'a';
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum.find((v) => v !== null) ?? s.enum[0];
  const alt = s.anyOf ?? s.oneOf;
  if (alt?.length) return sample(alt.find((a) => a.type !== 'null') ?? alt[0], depth + 1);
  if (s.allOf?.length) return sample(s.allOf[0], depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type;
  switch (type) {
    case 'integer':
    case 'number':
      return Math.max(1, s.minimum ?? 1);
    case 'boolean':
      return true;
    case 'array':
      return [sample(s.items, depth + 1)];
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(s.properties ?? {})) out[k] = sample(v, depth + 1);
      return out;
    }
    case 'string':
      return s.format === 'binary' ? 'file' : 'a'.repeat(Math.max(1, s.minLength ?? 1));
    default:
      return 'a';
  }
}

/** Values that have broken servers before, for one field. */
const badValues: Array<[string, unknown]> = [
  ['nul', 'a\u0000b'],
  ['huge string', 'x'.repeat(30_000)],
  ['empty', ''],
  ['number', 123],
  ['huge number', 1e308],
  ['unsafe integer', 2 ** 63],
  ['negative', -1],
  ['fraction', 1.5],
  ['boolean', false],
  ['null', null],
  ['array', ['a', 'b']],
  ['object', { x: { y: 1 } }],
  ['unicode', '😀\u202e\u200d测试\ud800'],
  ['sql-ish', "' or 1=1 --"],
];
const badQueryValues: Array<[string, string]> = [
  ['nul', 'a\u0000b'],
  ['huge', 'x'.repeat(8_000)],
  ['empty', ''],
  ['not a number', 'abc'],
  ['huge number', '9'.repeat(40)],
  ['exponent', '1e400'],
  ['negative', '-1'],
  ['fraction', '1.5'],
  ['unicode', '😀\u202e测试'],
  ['lone surrogate', '\ud800'],
];
const badPathValues: Array<[string, string]> = [
  ['nul', 'a%00b'],
  ['long', 'p'.repeat(150)],
  ['unicode', encodeURIComponent('😀测试')],
  ['negative', '-1'],
  ['dots', '..%2F..%2Fetc'],
  ['bad escape', '%E0%A4%A'],
];

interface Case {
  path: string;
  label: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array | FormData;
}

function buildCases(op: Operation, method: string, path: string): Case[] {
  const key = `${method} ${path}`;
  const params = op.parameters ?? [];
  const pathParams = Object.fromEntries(params.filter((p) => p.in === 'path').map((p) => [p.name, String(sample(p.schema))]));
  const query = Object.fromEntries(params.filter((p) => p.in === 'query' && p.schema?.type !== 'object').map((p) => [p.name, String(sample(p.schema))]));
  const jsonSchema = op.requestBody?.content['application/json']?.schema;
  const multipart = op.requestBody?.content['multipart/form-data'] !== undefined;
  const body = jsonSchema ? (sample(jsonSchema) as Record<string, unknown>) : undefined;

  const urlOf = (pp: Record<string, string>, q: Record<string, string>) => {
    const p = path.replace(/\{(\w+)\}/g, (_m, n: string) => pp[n] ?? 'x');
    const qs = new URLSearchParams(q).toString();
    return qs ? `${p}?${qs}` : p;
  };
  const base = urlOf(pathParams, query);
  const json = { 'content-type': 'application/json' };
  const cases: Case[] = [];
  const add = (label: string, url: string, headers: Record<string, string>, b?: Case['body']) => cases.push({ path, label, method, url, headers, body: b });

  // Whole-request malformations: never valid, safe for every operation.
  const deep = `{"a":${'['.repeat(3000)}${']'.repeat(3000)}}`;
  if (method !== 'GET') {
    add('no body', base, {});
    add('bad JSON', base, json, '{"a": ');
    add('array body', base, json, '[1,2,3]');
    add('string body', base, json, '"x"');
    add('deep JSON', base, json, deep);
    add('text body', base, { 'content-type': 'text/plain' }, 'hello');
    add('xml body', base, { 'content-type': 'application/xml' }, '<a/>');
    add('junk multipart', base, { 'content-type': 'multipart/form-data; boundary=zz' }, '--zz\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc');
    add('multipart without boundary', base, { 'content-type': 'multipart/form-data' }, 'abc');
    add('body too large', base, json, JSON.stringify({ pad: 'x'.repeat(1_100_000) }));
  }
  for (const [name] of Object.entries(pathParams)) {
    for (const [label, v] of badPathValues) add(`path ${name}: ${label}`, urlOf({ ...pathParams, [name]: v }, query), {});
  }
  if (heavy.has(key)) {
    if (body) add('all fields NUL', base, json, JSON.stringify(Object.fromEntries(Object.keys(body).map((k) => [k, 'a\u0000b']))));
    return cases;
  }

  add('valid-looking', base, body ? json : {}, body ? JSON.stringify(body) : undefined);
  for (const p of params.filter((x) => x.in === 'query')) {
    for (const [label, v] of badQueryValues)
      add(`query ${p.name}: ${label}`, urlOf(pathParams, { ...query, [p.name]: v }), body ? json : {}, body ? JSON.stringify(body) : undefined);
    add(`query ${p.name}: repeated`, `${base}${base.includes('?') ? '&' : '?'}${encodeURIComponent(p.name)}=1&${encodeURIComponent(p.name)}=2`, {});
  }
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    for (const field of Object.keys(body)) {
      for (const [label, v] of badValues) add(`body ${field}: ${label}`, base, json, JSON.stringify({ ...body, [field]: v }));
      const { [field]: _drop, ...rest } = body;
      add(`body ${field}: missing`, base, json, JSON.stringify(rest));
    }
    add('unknown field', base, json, JSON.stringify({ ...body, zzUnknown: 'x' }));
    add(
      'form-encoded body',
      base,
      { 'content-type': 'application/x-www-form-urlencoded' },
      new URLSearchParams(Object.fromEntries(Object.entries(body).map(([k, v]) => [k, String(v)]))).toString(),
    );
  }
  if (multipart) {
    const form = (name: string, content: string, filename: string, type: string) => {
      const f = new FormData();
      f.append(name, new Blob([content], { type }), filename);
      return f;
    };
    add('multipart: wrong field', base, {}, form('other', 'abc', 'a.txt', 'text/plain'));
    add('multipart: NUL filename', base, {}, form('file', 'abc', 'a\u0000b.txt', 'text/plain'));
    add('multipart: lying type', base, {}, form('file', 'not really a png', 'a.png', 'image/png'));
    add('multipart: empty file', base, {}, form('file', '', 'a.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'));
    add('multipart: odd name', base, {}, form('file', 'abc', `${'名'.repeat(300)}.md`, 'text/markdown'));
  }
  return cases;
}

interface Failure {
  case: string;
  why: string;
}

async function send(t: TestApp, c: Case, token: string | undefined): Promise<Failure | null> {
  const headers: Record<string, string> = { 'x-forwarded-for': nextIp(), ...c.headers };
  if (token) headers[TOKEN_NAME] = token;
  const name = `${token ? 'token' : 'anon'} ${c.method} ${c.url.slice(0, 120)} [${c.label}]`;
  let res: Response;
  try {
    res = await fetch(`${t.url}${c.url}`, { method: c.method, headers, body: c.body as BodyInit | undefined, signal: AbortSignal.timeout(10_000) });
  } catch (err) {
    return { case: name, why: `request failed: ${(err as Error).message}` };
  }
  const text = await res.text();
  if (res.status !== 200) return { case: name, why: `HTTP ${res.status}: ${text.slice(0, 200)}` };
  if (!(res.headers.get('content-type') ?? '').includes('json')) return null; // an HTML page or a file, answered normally
  let env: { code?: unknown; msg?: unknown };
  try {
    env = JSON.parse(text) as typeof env;
  } catch {
    return { case: name, why: `not JSON: ${text.slice(0, 200)}` };
  }
  if (typeof env.code !== 'number' || typeof env.msg !== 'string') {
    return rawSuccess.has(c.path) ? null : { case: name, why: `not an envelope: ${text.slice(0, 200)}` };
  }
  if (env.code === ErrorCode.SERVER_ERROR) return { case: name, why: '999' };
  if (env.code !== 0 && !hasChinese.test(env.msg)) return { case: name, why: `msg without Chinese: ${env.msg.slice(0, 100)}` };
  return null;
}

/** Runs `jobs` with at most `n` in flight. */
async function pool<T>(items: T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

/** One database is enough to keep the suite near a minute: PostgreSQL when there is one (production's), else PGlite. */
const fuzzDb = testDbKinds.at(-1)!;

describe('fuzzing every documented operation on ' + fuzzDb, () => {
  const dbKind = fuzzDb;
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ db: dbKind, env: { RATE_LIMIT_PER_MINUTE: '100000', RATE_LIMIT_ANON_PER_MINUTE: '100000' } });
    token = (await loginByPhone(t)).tokenValue;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers malformed input with the envelope, never 999, and stays up', async () => {
    const doc = (await (await fetch(`${t.url}/api/docs/json`)).json()) as Doc;
    const jobs: Array<{ c: Case; token?: string }> = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (!isApi(path)) continue;
      for (const [m, op] of Object.entries(ops)) {
        const method = m.toUpperCase();
        if (!['GET', 'POST', 'PUT', 'DELETE', 'PATCH'].includes(method)) continue;
        const key = `${method} ${path}`;
        const cases = buildCases(op, method, path);
        const needsLogin = (op.security ?? []).length === 1;
        for (const c of cases) {
          if (!noToken.has(key)) jobs.push({ c, token });
          // Without a token a login-only route answers 401 before reading anything: a sample is enough there.
          if (!needsLogin || c.label === 'deep JSON' || c.label.endsWith(': nul')) jobs.push({ c });
        }
      }
    }
    expect(jobs.length).toBeGreaterThan(1000);
    const failures: Failure[] = [];
    await pool(jobs, 6, async (j) => {
      const f = await send(t, j.c, j.token);
      if (f) failures.push(f);
    });
    if (failures.length) console.error(failures.map((f) => `${f.case} → ${f.why}`).join('\n'));
    expect(failures.slice(0, 40), `${failures.length} failing cases of ${jobs.length}`).toEqual([]);
    const health = await fetch(`${t.url}/healthz`);
    expect(health.status).toBe(200);
    // The suite's own session is still alive: nothing it sent could log it out.
    const me = await t.call('GET', '/auth/nowLoginUser', { token });
    expect(me.code).toBe(0);
  }, 120_000);
});
