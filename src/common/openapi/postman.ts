import type { OpenAPIObject } from '@nestjs/swagger';

type Schema = {
  $ref?: string;
  type?: 'object' | 'array' | 'integer' | 'number' | 'boolean' | 'string';
  example?: unknown;
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  enum?: unknown[];
  default?: unknown;
};

interface PostmanItem {
  name: string;
  request: {
    method: string;
    header: { key: string; value: string }[];
    url: {
      raw: string;
      host: string[];
      path: string[];
      query?: { key: string; value: string; disabled: boolean }[];
    };
    body?:
      | { mode: 'raw'; raw: string; options: { raw: { language: 'json' } } }
      | { mode: 'formdata'; formdata: { key: string; type: 'file'; src: string }[] };
    description?: string;
  };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/**
 * A Postman v2.1 collection generated from the OpenAPI document: one folder per tag, one request
 * per operation, `{{baseUrl}}` and `{{apiKey}}` as collection variables, and example bodies taken
 * from the schemas.
 */
export function toPostmanCollection(document: OpenAPIObject, baseUrl: string) {
  const folders = new Map<string, PostmanItem[]>();
  for (const [path, pathItem] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = (pathItem as Record<string, unknown>)[method] as
        | {
            summary?: string;
            tags?: string[];
            parameters?: { name: string; in: string; example?: unknown; schema?: Schema }[];
            requestBody?: { content?: Record<string, { schema?: Schema }> };
            security?: Record<string, string[]>[];
          }
        | undefined;
      if (!operation) continue;
      const segments = path
        .replace(/^\//, '')
        .split('/')
        .map((part) => part.replace(/^\{(.+)\}$/, ':$1'));
      const query = (operation.parameters ?? [])
        .filter((parameter) => parameter.in === 'query')
        .map((parameter) => ({
          key: parameter.name,
          value: stringify(parameter.example ?? parameter.schema?.example),
          disabled: true,
        }));
      const header = [{ key: 'Accept', value: 'application/json' }];
      const schemes = (operation.security ?? []).flatMap((entry) => Object.keys(entry));
      if (schemes.includes('api_key'))
        header.push({ key: 'Authorization', value: 'Bearer {{apiKey}}' });
      else if (schemes.includes('agent_token'))
        header.push({ key: 'Authorization', value: 'Bearer {{agentToken}}' });
      const item: PostmanItem = {
        name: operation.summary ?? `${method.toUpperCase()} ${path}`,
        request: {
          method: method.toUpperCase(),
          header,
          url: {
            raw: `{{baseUrl}}/${segments.join('/')}`,
            host: ['{{baseUrl}}'],
            path: segments,
            ...(query.length ? { query } : {}),
          },
        },
      };
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      if (schema) {
        header.push({ key: 'Content-Type', value: 'application/json' });
        item.request.body = {
          mode: 'raw',
          raw: JSON.stringify(exampleOf(schema, document), null, 2),
          options: { raw: { language: 'json' } },
        };
      }
      // Uploads: one file part per binary property (the client picks the file).
      const form = operation.requestBody?.content?.['multipart/form-data']?.schema;
      if (!schema && form?.properties) {
        item.request.body = {
          mode: 'formdata',
          formdata: Object.keys(form.properties).map((key) => ({ key, type: 'file', src: '' })),
        };
      }
      const tag = operation.tags?.[0] ?? 'default';
      folders.set(tag, [...(folders.get(tag) ?? []), item]);
    }
  }
  return {
    info: {
      name: document.info.title,
      description: document.info.description,
      version: document.info.version,
      schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
    },
    variable: [
      { key: 'baseUrl', value: baseUrl },
      { key: 'apiKey', value: '' },
      { key: 'agentToken', value: '' },
    ],
    item: [...folders.entries()].map(([name, item]) => ({ name, item })),
  };
}

function stringify(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function exampleOf(schema: Schema, document: OpenAPIObject, depth = 0): unknown {
  if (depth > 6) return null;
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop() ?? '';
    const target = document.components?.schemas?.[name] as Schema | undefined;
    return target ? exampleOf(target, document, depth + 1) : null;
  }
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.allOf) {
    return Object.assign(
      {},
      ...schema.allOf.map((part) => exampleOf(part, document, depth + 1) as object),
    );
  }
  switch (schema.type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, value]) => [
          key,
          exampleOf(value, document, depth + 1),
        ]),
      );
    case 'array':
      return schema.items ? [exampleOf(schema.items, document, depth + 1)] : [];
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'string':
    case undefined:
      return '';
  }
}
