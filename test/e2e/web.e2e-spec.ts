import request from 'supertest';
import { registerOrganization } from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';

describe('browser entry points: loader, chat frame, demo page, dashboard', () => {
  let suite: TestApp;
  let app: AppProcess;

  beforeAll(async () => {
    ({ app } = suite = await startTestApp());
  });

  afterAll(() => suite?.stop());

  it('serves the loader as cacheable JavaScript', async () => {
    const res = await request(app.url).get('/widget.js').expect(200);
    expect(res.headers['content-type']).toContain('text/javascript');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.text.length).toBeGreaterThan(100);
  });

  it("lets only the site's allowed domains frame the chat", async () => {
    const org = await registerOrganization(app.url);
    const open = await request(app.url)
      .get('/widget/frame.html')
      .query({ widget_key: org.site.widget_key })
      .expect(200);
    expect(open.headers['content-security-policy']).toContain('frame-ancestors *');
    expect(open.text).toContain('<div id="app">');

    await request(app.url)
      .patch(`/api/agent/sites/${org.site.id}`)
      .set('Authorization', `Bearer ${org.token}`)
      .send({ allowed_domains: ['shop.example', 'localhost:8080'] })
      .expect(200);
    const closed = await request(app.url)
      .get('/widget/frame.html')
      .query({ widget_key: org.site.widget_key })
      .expect(200);
    expect(closed.headers['content-security-policy']).toContain(
      "frame-ancestors 'self' http://shop.example:* https://shop.example:* " +
        'http://localhost:8080 https://localhost:8080',
    );

    await request(app.url).get('/widget/frame.html').query({ widget_key: 'wk_nope' }).expect(404);
  });

  it('accepts widget calls from its own frame (the service origin) whatever the allowed domains', async () => {
    const org = await registerOrganization(app.url);
    await request(app.url)
      .patch(`/api/agent/sites/${org.site.id}`)
      .set('Authorization', `Bearer ${org.token}`)
      .send({ allowed_domains: ['shop.example'] })
      .expect(200);
    const host = new URL(app.url).host;
    await request(app.url)
      .post('/api/widget/init')
      .set('Origin', `http://${host}`)
      .send({ widget_key: org.site.widget_key })
      .expect(200);
    await request(app.url)
      .post('/api/widget/init')
      .set('Origin', 'http://evil.example')
      .send({ widget_key: org.site.widget_key })
      .expect(403);
  });

  it('serves a demo host page with the install snippet', async () => {
    const org = await registerOrganization(app.url);
    const res = await request(app.url)
      .get('/demo')
      .query({ widget_key: org.site.widget_key })
      .expect(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.text).toContain(`data-widget-key="${org.site.widget_key}"`);
    const bad = await request(app.url).get('/demo').query({ widget_key: '"><script>' }).expect(200);
    expect(bad.text).not.toContain('"><script>');
  });

  it("writes the demo page's loader address from PUBLIC_URL, never from the Host header, under a CSP", async () => {
    const org = await registerOrganization(app.url);
    const res = await request(suite.direct)
      .get('/demo')
      .set('Host', 'evil.example"><script>alert(1)</script>')
      .query({ widget_key: org.site.widget_key })
      .expect(200);
    // The suite's PUBLIC_URL is the default, http://localhost:$PORT.
    const publicOrigin = /<script async src="(http:\/\/localhost:\d+)\/widget\.js"/.exec(
      res.text,
    )?.[1];
    expect(publicOrigin).toBeDefined();
    expect(res.text).not.toContain('evil.example');
    const policy = res.headers['content-security-policy'];
    expect(policy).toContain(`script-src ${publicOrigin!}`);
    expect(policy).toContain(`frame-src ${publicOrigin!}`);
    expect(policy).toContain(`connect-src ${publicOrigin!}`);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("default-src 'none'");
  });

  it('serves Swagger UI under a CSP that forbids framing and foreign scripts', async () => {
    const res = await request(app.url).get('/api/docs').redirects(1).expect(200);
    const policy = res.headers['content-security-policy'];
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    const init = await request(app.url).get('/api/docs/swagger-ui-init.js').expect(200);
    expect(init.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('answers the dashboard to browsers and the 404 envelope to JSON clients', async () => {
    const page = await request(app.url).get('/inbox/42').set('Accept', 'text/html').expect(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    const root = await request(app.url).get('/').set('Accept', 'text/html,*/*').expect(200);
    expect(root.text).toContain('<div id="root">');

    const json = await request(app.url).get('/inbox/42').set('Accept', 'application/json');
    expect(json.status).toBe(404);
    expect(json.body).toMatchObject({ status: false, code: '404', error_code: 'not_found' });
    const api = await request(app.url).get('/api/agent/nothing').set('Accept', 'text/html');
    expect(api.status).toBe(404);
  });

  it('gives the dashboard a favicon it serves (issue 26)', async () => {
    const root = await request(app.url).get('/').set('Accept', 'text/html').expect(200);
    const href = /<link rel="icon" type="image\/svg\+xml" href="([^"]+)"/.exec(root.text)?.[1];
    expect(href).toMatch(/^\/assets\/favicon-[\w-]+\.svg$/);
    const icon = await request(app.url)
      .get(href as string)
      .expect(200);
    expect(icon.headers['content-type']).toContain('image/svg+xml');
    expect(icon.headers['cache-control']).toContain('immutable');
  });
});
