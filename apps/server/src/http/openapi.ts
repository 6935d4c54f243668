import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { authModeOf } from './public-routes.js';

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];
type JsonObject = Record<string, unknown>;

/** What a multipart upload route reads (our upload routes take one part named `file`). */
const multipartBody = {
  type: 'object',
  required: ['file'],
  properties: { file: { type: 'string', format: 'binary', description: '上传的文件（multipart 字段 file）' } },
};

/**
 * The zod → JSON Schema transform plus what the OpenAPI document needs and the route schemas cannot say:
 * - `security` from http/public-routes.ts: required login, optional login (anonymous allowed), or none;
 * - the multipart body of upload routes (they read the parts in the handler, so they have no body schema);
 * - free-form query strings (a zod record) as one `style: form, explode: true` object parameter, which is how
 *   OpenAPI 3 spells "any key"; @fastify/swagger would otherwise turn the schema's own keywords into parameters.
 */
export function openApiTransform(input: TransformInput): ReturnType<typeof jsonSchemaTransform> {
  const out = jsonSchemaTransform(input);
  const schema: JsonObject = { ...(out.schema as JsonObject) };
  const method = Array.isArray(input.route.method) ? input.route.method[0]! : input.route.method;
  const mode = authModeOf(method, input.url);
  if (mode === 'required') schema.security = [{ token: [] }];
  else if (mode === 'optional') schema.security = [{}, { token: [] }];

  const consumes = schema.consumes;
  if (Array.isArray(consumes) && consumes.includes('multipart/form-data') && !schema.body) schema.body = multipartBody;

  const query = schema.querystring as JsonObject | undefined;
  if (query && !query.properties) {
    schema.querystring = {
      type: 'object',
      style: 'form',
      explode: true,
      properties: {
        params: { type: 'object', additionalProperties: query.additionalProperties ?? true, description: '任意键值对，作为普通查询参数发送' },
      },
    };
  }
  return { ...out, schema } as ReturnType<typeof jsonSchemaTransform>;
}
