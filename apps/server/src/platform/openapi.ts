import { api, type EndpointDef } from '@ks/contracts';
import { z } from 'zod';

const envelope = (data: z.ZodType) => z.object({ code: z.number().int(), data, message: z.string() });
const errorEnvelope = envelope(z.unknown());

function jsonSchema(s: z.ZodType) {
  return z.toJSONSchema(s, { target: 'openapi-3.0', unrepresentable: 'any', io: 'input' });
}

/** OpenAPI 3.0 document generated from the contract registry, so docs and code never drift. */
export function buildOpenApi(version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, d] of Object.entries(api) as [string, EndpointDef][]) {
    const op: Record<string, unknown> = {
      operationId: name,
      summary: d.summary,
      tags: [d.tag],
      security: d.auth ? [{ bearer: [] }] : [],
      responses: {
        200: { description: '成功', content: { 'application/json': { schema: jsonSchema(envelope(d.data)) } } },
        400: {
          description: '参数错误（data.fieldErrors 按字段给出）',
          content: { 'application/json': { schema: jsonSchema(errorEnvelope) } },
        },
        ...(d.auth
          ? { 401: { description: '未登录（401）/ 登录过期（10000）/ 令牌无效（10001）/ 异地登录（10017）' } }
          : {}),
        500: { description: '服务器错误（data.requestId）' },
      },
    };
    if (d.body) op.requestBody = { required: true, content: { 'application/json': { schema: jsonSchema(d.body) } } };
    if (d.form) {
      const fields = jsonSchema(d.form) as { properties?: Record<string, unknown>; required?: string[] };
      const schema = { ...fields, properties: { ...fields.properties, file: { type: 'string', format: 'binary' } } };
      op.requestBody = { required: true, content: { 'multipart/form-data': { schema } } };
    }
    if (d.binary) {
      op.responses = {
        ...(op.responses as object),
        200: {
          description: '文件内容',
          content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
        },
      };
    }
    if (d.query) {
      const schema = jsonSchema(d.query) as { properties?: Record<string, unknown>; required?: string[] };
      op.parameters = Object.entries(schema.properties ?? {}).map(([pname, ps]) => ({
        name: pname,
        in: 'query',
        required: schema.required?.includes(pname) ?? false,
        schema: ps,
      }));
    }
    paths[d.path] = { ...(paths[d.path] ?? {}), [d.method.toLowerCase()]: op };
  }
  return {
    openapi: '3.0.3',
    info: { title: '公共资源交易与信用管理平台 API', version },
    servers: [{ url: '/' }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths,
  };
}
