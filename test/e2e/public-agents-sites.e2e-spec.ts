import request from 'supertest';
import {
  addMember,
  createApiKey,
  registerOrganization,
  type Registered,
} from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';

describe('public API: abilities, agents, sites, pagination', () => {
  let suite: TestApp;
  let app: AppProcess;
  let org: Registered;
  let allKey: string;

  beforeAll(async () => {
    ({ app } = suite = await startTestApp({ PUBLIC_URL: 'https://chat.example.test' }));
    org = await registerOrganization(app.url);
    await addMember(app.url, org.token, 'admin');
    await addMember(app.url, org.token, 'agent');
    await addMember(app.url, org.token, 'agent');
    ({ key: allKey } = await createApiKey(app.url, org.token, ['agents:read', 'sites:read']));
  });

  afterAll(() => suite?.stop());

  const get = (path: string, key = allKey) => request(app.url).get(path).set('X-Service-Key', key);

  it.each([
    ['agents:read', '/api/v1/agents'],
    ['agents:read', '/api/v1/agents/1'],
    ['sites:read', '/api/v1/sites'],
    ['sites:read', '/api/v1/sites/1'],
  ])('needs %s for %s (403 naming the ability otherwise)', async (ability, path) => {
    const other = ability === 'agents:read' ? 'sites:read' : 'agents:read';
    const { key } = await createApiKey(app.url, org.token, [other]);
    const res = await get(path, key).expect(403);
    expect(res.body).toMatchObject({
      status: false,
      code: '403',
      error_code: 'missing_ability',
      message: `API key missing required ability: ${ability}`,
    });
  });

  it('lists agents newest first with the pagination block and absolute links', async () => {
    const res = await get('/api/v1/agents?per_page=2').expect(200);
    expect(res.body).toMatchObject({
      status: true,
      current_page: 1,
      per_page: 2,
      total: 4,
      last_page: 2,
    });
    expect(res.body.data).toHaveLength(2);
    const ids = res.body.data.map((a: { id: number }) => a.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(res.body.data[0]).toEqual({
      id: expect.any(Number),
      name: expect.any(String),
      email: expect.any(String),
      role: 'agent',
      status: 'offline',
    });
    expect(res.body.links).toEqual({
      first: 'https://chat.example.test/api/v1/agents?per_page=2&page=1',
      last: 'https://chat.example.test/api/v1/agents?per_page=2&page=2',
      prev: null,
      next: 'https://chat.example.test/api/v1/agents?per_page=2&page=2',
    });
    const second = await get('/api/v1/agents?per_page=2&page=2').expect(200);
    expect(second.body.links.next).toBeNull();
    expect(
      second.body.data
        .map((a: { id: number }) => a.id)
        .every((id: number) => id < Math.min(...ids)),
    ).toBe(true);
  });

  it('filters agents by role and defaults per_page to 50', async () => {
    const res = await get('/api/v1/agents?role=agent').expect(200);
    expect(res.body.per_page).toBe(50);
    expect(res.body.total).toBe(2);
    expect(res.body.data.every((a: { role: string }) => a.role === 'agent')).toBe(true);
    const bad = await get('/api/v1/agents?role=boss').expect(422);
    expect(Object.keys(bad.body.errors)).toEqual(['role']);
  });

  it.each([
    ['per_page=0', 'per_page'],
    ['per_page=101', 'per_page'],
    ['per_page=ten', 'per_page'],
    ['page=0', 'page'],
    ['page=-3', 'page'],
  ])('answers 422 for %s naming %s', async (query, field) => {
    const res = await get(`/api/v1/agents?${query}`).expect(422);
    expect(res.body).toMatchObject({ error_code: 'validation_failed' });
    expect(Object.keys(res.body.errors)).toEqual([field]);
  });

  it('answers a page past the end with an empty list', async () => {
    const res = await get('/api/v1/agents?page=9').expect(200);
    expect(res.body).toMatchObject({ data: [], current_page: 9, last_page: 1 });
  });

  it('reads one agent with last_seen_at under data', async () => {
    const res = await get(`/api/v1/agents/${org.user.id}`).expect(200);
    expect(res.body.data).toMatchObject({
      id: org.user.id,
      role: 'owner',
      last_seen_at: expect.anything(),
    });
  });

  it('lists sites with the is_active filter and reads one with timezone and content_import', async () => {
    const created = await request(app.url)
      .post('/api/agent/sites')
      .set('Authorization', `Bearer ${org.token}`)
      .send({ name: 'Paused', is_active: false, timezone: 'Asia/Tokyo' })
      .expect(201);
    const all = await get('/api/v1/sites').expect(200);
    expect(all.body.total).toBe(2);
    const inactive = await get('/api/v1/sites?is_active=false').expect(200);
    expect(inactive.body.data).toEqual([
      { id: created.body.data.id, name: 'Paused', domain: null, is_active: false },
    ]);
    const active = await get('/api/v1/sites?is_active=1').expect(200);
    expect(active.body.data.map((s: { id: number }) => s.id)).toEqual([org.site.id]);
    await get('/api/v1/sites?is_active=maybe').expect(422);

    const one = await get(`/api/v1/sites/${created.body.data.id}`).expect(200);
    const expected = {
      id: created.body.data.id,
      name: 'Paused',
      domain: null,
      is_active: false,
      timezone: 'Asia/Tokyo',
      content_import: {
        status: 'not_started',
        progress: 0,
        progress_label: 'Not started',
        summary: { pages: 0, kb_articles: 0, bot_replies: 0 },
      },
    };
    expect(one.body.data).toEqual(expected);
    expect(one.body).toMatchObject(expected);
  });

  it("answers 404 for another organization's agent and site, and for non-numeric ids", async () => {
    const other = await registerOrganization(app.url, 'Other');
    await get(`/api/v1/agents/${other.user.id}`).expect(404);
    await get(`/api/v1/sites/${other.site.id}`).expect(404);
    const res = await get('/api/v1/sites/abc').expect(404);
    expect(res.body).toMatchObject({ message: 'Not found.', error_code: 'not_found' });
    const list = await get('/api/v1/sites').expect(200);
    expect(list.body.data.map((s: { id: number }) => s.id)).not.toContain(other.site.id);
  });
});
