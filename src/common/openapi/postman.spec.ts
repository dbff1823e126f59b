import type { OpenAPIObject } from '@nestjs/swagger';
import { toPostmanCollection } from './postman';

const document = {
  openapi: '3.0.0',
  info: { title: 'T', version: '1.0.0', description: 'd' },
  paths: {
    '/api/v1/conversations/{conversation}/messages': {
      post: {
        summary: 'Send a reply',
        tags: ['conversations'],
        security: [{ api_key: [] }],
        parameters: [
          { name: 'conversation', in: 'path', required: true, schema: { type: 'integer' } },
        ],
        requestBody: {
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Reply' } } },
        },
        responses: {},
      },
      get: {
        summary: 'List messages',
        tags: ['conversations'],
        parameters: [{ name: 'per_page', in: 'query', schema: { type: 'integer', example: 50 } }],
        responses: {},
      },
    },
    '/api/v1/attachments': {
      post: {
        summary: 'Upload a file',
        tags: ['attachments'],
        security: [{ api_key: [] }],
        requestBody: {
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                properties: { file: { type: 'string', format: 'binary' } },
              },
            },
          },
        },
        responses: {},
      },
    },
  },
  components: {
    schemas: {
      Reply: {
        type: 'object',
        properties: {
          body: { type: 'string', example: 'Hello' },
          agent_user_id: { type: 'integer' },
        },
      },
    },
  },
} as unknown as OpenAPIObject;

describe('toPostmanCollection', () => {
  const collection = toPostmanCollection(document, 'https://chat.example');

  it('is a v2.1 collection with the base URL as a variable', () => {
    expect(collection.info.schema).toContain('v2.1.0');
    expect(collection.variable).toContainEqual({ key: 'baseUrl', value: 'https://chat.example' });
  });

  it('turns each operation into a request in its tag folder, path parameters as :name', () => {
    expect(collection.item).toHaveLength(2);
    const [get, post] = collection.item[0].item;
    expect([get.request.method, post.request.method]).toEqual(['GET', 'POST']);
    expect(post.request.url.raw).toBe('{{baseUrl}}/api/v1/conversations/:conversation/messages');
    expect(get.request.url.query).toEqual([{ key: 'per_page', value: '50', disabled: true }]);
  });

  it('fills bodies from schema examples and sends the API key where the route needs one', () => {
    const [get, post] = collection.item[0].item;
    const body = post.request.body;
    expect(body?.mode).toBe('raw');
    expect(JSON.parse(body?.mode === 'raw' ? body.raw : '')).toEqual({
      body: 'Hello',
      agent_user_id: 1,
    });
    expect(post.request.header).toContainEqual({
      key: 'Authorization',
      value: 'Bearer {{apiKey}}',
    });
    expect(get.request.header).not.toContainEqual(
      expect.objectContaining({ key: 'Authorization' }),
    );
  });

  it('gives an upload a form body with a file part', () => {
    const [upload] = collection.item[1].item;
    expect(upload.request.body).toEqual({
      mode: 'formdata',
      formdata: [{ key: 'file', type: 'file', src: '' }],
    });
  });
});
