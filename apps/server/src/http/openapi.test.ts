import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/app.js';
import { authModeOf } from './public-routes.js';

interface Operation {
  security?: Array<Record<string, string[]>>;
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, { type?: string; format?: string }>; required?: string[] } }> };
}
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>> };

const methods = ['get', 'post', 'put', 'delete', 'patch'];
/** `/api/features/{clientKey}` back to the route pattern `/api/features/:clientKey`. */
const routeUrl = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

describe('the OpenAPI document', () => {
  let t: TestApp;
  let doc: Doc;
  beforeAll(async () => {
    t = await startTestApp();
    const res = await fetch(`${t.url}/api/docs/json`);
    expect(res.status).toBe(200);
    doc = (await res.json()) as Doc;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('validates as OpenAPI 3', async () => {
    expect(doc.openapi).toMatch(/^3\./);
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it('declares the inkstone-token requirement on every operation that needs login, and only there', () => {
    let required = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (!methods.includes(method)) continue;
        const mode = authModeOf(method.toUpperCase(), routeUrl(path));
        const where = `${method.toUpperCase()} ${path}`;
        if (mode === 'required') {
          required += 1;
          expect(op.security, where).toEqual([{ token: [] }]);
        } else if (mode === 'optional') {
          expect(op.security, where).toEqual([{}, { token: [] }]);
        } else {
          expect(op.security, where).toBeUndefined();
        }
      }
    }
    expect(required).toBeGreaterThan(50);
  });

  it('documents the multipart body of the upload routes', () => {
    for (const path of ['/api/writing/file/upload', '/api/wx/upload']) {
      const body = doc.paths[path]?.post?.requestBody?.content['multipart/form-data']?.schema;
      expect(body, path).toBeDefined();
      expect(body!.properties!.file).toMatchObject({ type: 'string', format: 'binary' });
      expect(body!.required).toEqual(['file']);
    }
  });

  it('documents free-form log queries as one exploded object parameter', () => {
    const params = (doc.paths['/api/engine/log/collect/publish/fail']!.get as { parameters: unknown[] }).parameters;
    expect(params).toEqual([expect.objectContaining({ in: 'query', name: 'params', style: 'form', explode: true, schema: expect.objectContaining({ type: 'object' }) })]);
  });
});
