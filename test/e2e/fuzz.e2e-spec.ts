import request from 'supertest';
import { registerOrganization, type Registered, uniqueEmail } from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';
import {
  buildPlan,
  type Credentials,
  type FuzzDocument,
  isDisruptive,
  operationsOf,
  type Probe,
  type Schema,
  send,
} from '../utils/fuzz';

/**
 * Issue 16: every operation of the served OpenAPI document, tried as a careless or hostile
 * client would (wrong JSON types for the whole body and each property, huge and negative
 * numbers, very long strings, deep nesting, NUL and lone surrogates, `__proto__` keys, odd path
 * ids and query values). Nothing here names an operation: a new route is covered by being
 * documented. Only the credentials and a few records to point ids at are made by hand.
 *
 * Every answer must be a 4xx (or a 2xx) in the envelope; a 5xx fails with the exact request.
 * The validating proxy also fails the suite when an answer's status is not documented.
 */
/**
 * About 1 500 requests in all, however many operations: well under a minute on 2 busy cores.
 * `FUZZ_BUDGET=30000` gives a thorough run by hand (every mutation of every operation).
 */
const REQUEST_BUDGET = Number(process.env.FUZZ_BUDGET) || 1500;

describe('fuzz: every documented operation answers bad input with a 4xx', () => {
  let suite: TestApp;
  let app: AppProcess;
  let org: Registered;
  let document: FuzzDocument;
  let credentials: Credentials;

  const agent = (token: string) => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    ({ app } = suite = await startTestApp({
      // The budgets are not under test here: they would turn most requests into 429s.
      RATE_LIMIT_PER_MINUTE: '1000000',
      SIGNUP_LIMIT_PER_HOUR: '1000000',
      WIDGET_LIMIT_PER_MINUTE: '1000000',
      VISITOR_MESSAGE_LIMIT_PER_MINUTE: '1000000',
      OTP_MAIL_LIMIT_PER_HOUR: '1000000',
      TRUSTED_LOGIN_LIMIT_PER_MINUTE: '1000000',
      WEBHOOK_ENDPOINTS_MAX: '1000000',
      BOOKINGS_PER_VISITOR_MAX: '1000000',
      WEBHOOK_ALLOW_INSECURE: 'true',
    }));
    document = (await request(app.url).get('/api/v1/openapi.json').expect(200))
      .body as FuzzDocument;
    org = await registerOrganization(app.url, 'Fuzz');

    // An API key with every ability the document lists.
    const keySchema =
      document.paths['/api/agent/api-keys']?.post?.requestBody?.content['application/json']?.schema;
    const abilities = abilitiesOf(document, keySchema);
    const key = await request(app.url)
      .post('/api/agent/api-keys')
      .set(agent(org.token))
      .send({ name: 'fuzz', abilities })
      .expect(201);

    // A visitor with a conversation, and a trusted-login secret that is enabled.
    const session = (
      await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: org.site.widget_key, visitor_name: 'Fuzz Visitor' })
        .expect(200)
    ).body as { session_token: string; visitor_uid: string };
    await request(app.url)
      .post('/api/widget/messages')
      .set(agent(session.session_token))
      .send({ body: 'Hello' })
      .expect(201);
    const secret = (
      await request(app.url)
        .post('/api/agent/visitor-trusted-login/secret')
        .set(agent(org.token))
        .expect(201)
    ).body.plain_text_secret as string;
    await request(app.url)
      .patch('/api/agent/visitor-trusted-login')
      .set(agent(org.token))
      .send({ enabled: true })
      .expect(200);

    // Records for the ids in paths: a webhook (then a ticket, so it has a delivery) and a member.
    await request(app.url)
      .post('/api/agent/webhooks')
      .set(agent(org.token))
      .send({ url: 'http://127.0.0.1:9/hook', events: ['ticket.created'] })
      .expect(201);
    await request(app.url)
      .post('/api/agent/tickets')
      .set(agent(org.token))
      .send({ subject: 'Fuzz', description: 'A ticket to point ids at' })
      .expect(201);
    await request(app.url)
      .post('/api/agent/team')
      .set(agent(org.token))
      .send({
        name: 'Member',
        email: uniqueEmail('member'),
        role: 'agent',
        password: 'pw-fuzz-12345',
      })
      .expect(201);

    credentials = {
      agentToken: org.token,
      apiKey: key.body.plain_text_key as string,
      widgetKey: org.site.widget_key,
      visitorUid: session.visitor_uid,
      sessionToken: session.session_token,
      trustedSecret: secret,
      fallbackIds: { site: org.site.id, user: org.user.id },
    };
  });

  afterAll(() => suite?.stop());

  /** A fresh owner for an operation that could end the session or change who may act. */
  async function freshOwner(): Promise<string> {
    const email = uniqueEmail('fuzz-owner');
    const password = 'pw-fuzz-fresh-12345';
    await request(app.url)
      .post('/api/agent/team')
      .set(agent(org.token))
      .send({ name: 'Fresh Owner', email, role: 'owner', password })
      .expect(201);
    const login = await request(app.url)
      .post('/api/agent/auth/login')
      .send({ email, password })
      .expect(200);
    return login.body.token as string;
  }

  it(
    'answers no 5xx and always the envelope',
    async () => {
      const started = Date.now();
      const operations = operationsOf(document);
      expect(operations.length).toBeGreaterThan(50);
      const calm = operations.filter((operation) => !isDisruptive(operation));
      const disruptive = operations.filter(isDisruptive);

      const failures: string[] = [];
      let sent = 0;
      const run = async (probes: Probe[], concurrency: number) => {
        let next = 0;
        const worker = async () => {
          while (next < probes.length) {
            const probe = probes[next++];
            sent += 1;
            const failure = await send(app.url, probe);
            if (failure) failures.push(failure);
          }
        };
        await Promise.all(Array.from({ length: concurrency }, worker));
      };

      const cap = Math.max(12, Math.floor(REQUEST_BUDGET / operations.length));
      const plans: Probe[] = [];
      for (const operation of calm) {
        plans.push(...(await buildPlan(app.url, document, operation, credentials, cap)));
      }
      await run(plans, 4);
      // Last, one at a time, each with an owner of its own: logout, password, deletions...
      let disruptiveProbes = 0;
      for (const operation of disruptive) {
        const own: Credentials = { ...credentials, agentToken: await freshOwner() };
        const probes = await buildPlan(app.url, document, operation, own, cap);
        disruptiveProbes += probes.length;
        await run(probes, 1);
      }

      process.stdout.write(
        `fuzz: ${sent} requests over ${operations.length} operations ` +
          `(${disruptive.length} disruptive ones last, ${disruptiveProbes} requests) in ` +
          `${Date.now() - started} ms; ${failures.length} failures\n`,
      );
      expect(failures).toEqual([]);
    },
    120_000 * Math.max(1, REQUEST_BUDGET / 1500),
  ); // a margin over the usual 20-45 s
});

function abilitiesOf(document: FuzzDocument, schema: Schema | undefined): string[] {
  const name = schema?.$ref?.split('/').pop();
  const dto = name ? document.components.schemas[name] : undefined;
  const items = (dto?.properties?.abilities as { items?: { enum?: string[] } } | undefined)?.items;
  return items?.enum ?? [];
}
