import request from 'supertest';
import { registerOrganization, type Registered } from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { agentOf, dataLookupClient } from '../utils/data-lookup-client';
import {
  ADA,
  BOB,
  createOwnerDatabase,
  type OwnerDatabase,
  shopSettings,
} from '../utils/owner-database';
import { codeOf, type SmtpCapture, startSmtp } from '../utils/smtp';
import { startTestApp, type TestApp } from '../utils/test-app';

/**
 * Issue 25, points 3 and 8: account login asks for a mailed code unless a site turns it off,
 * login codes are counted per identifier whatever its punctuation, and an account takes a
 * bounded number of wrong codes a day, however many visitors and codes they are spread over.
 */
describe('account login codes under abuse', () => {
  let suite: TestApp;
  let app: AppProcess;
  let owner: OwnerDatabase;
  let smtp: SmtpCapture;
  let org: Registered;
  let client: ReturnType<typeof dataLookupClient>;

  beforeAll(async () => {
    smtp = await startSmtp();
    owner = await createOwnerDatabase();
    ({ app } = suite = await startTestApp({ SMTP_URL: smtp.url, OTP_MAIL_LIMIT_PER_HOUR: '5' }));
    client = dataLookupClient(app.url);
    org = await registerOrganization(app.url, 'Shop');
    const { require_otp: _default, ...withoutOtp } = shopSettings(owner.readerUrl);
    await client.setUp(org, withoutOtp);
  });

  afterAll(async () => {
    await suite?.stop();
    await owner?.drop();
    await smtp?.close();
  });

  it('asks for a mailed code unless the settings turn it off', async () => {
    const read = await request(app.url)
      .get(`/api/agent/sites/${org.site.id}/data-lookup`)
      .set(agentOf(org))
      .expect(200);
    expect(read.body.data.require_otp).toBe(true);
    const session = await client.init(org.site);
    const res = await client.login(session, ADA.email).expect(200);
    expect(res.body).toMatchObject({
      otp_required: true,
      visitor_profile: { account_login: { logged_in: false } },
    });
    await smtp.next(ADA.email);
  });

  it('counts a phone number typed with other punctuation as the same recipient', async () => {
    const variants = [
      '+44 20 7946 0002',
      '+44-20-7946-0002',
      '+44 (20) 7946.0002',
      '+442079460002',
      ' +44 20 79 46 00 02 ',
    ];
    // A new visitor each time: the visitor's own five codes an hour are not what is tested.
    for (const variant of variants) {
      await client.login(await client.init(org.site), variant).expect(200);
    }
    const sixth = await client.login(await client.init(org.site), '+44/20/7946/0002').expect(429);
    expect(sixth.body).toMatchObject({ error_code: 'rate_limited', message: 'Too Many Attempts.' });
    // Another number is its own recipient.
    await client.login(await client.init(org.site), '+44 20 7946 0003').expect(200);
  });

  it('refuses even the right code once an account has taken 20 wrong ones today', async () => {
    const holder = await client.init(org.site);
    await client.login(holder, BOB.email).expect(200);
    const code = codeOf(await smtp.next(BOB.email));
    const wrong = code === '111111' ? '222222' : '111111';

    // Four more visitors, each burning a real code of Bob's with five wrong tries: 20 in all.
    for (let visitor = 0; visitor < 4; visitor += 1) {
      const guesser = await client.init(org.site);
      await client.login(guesser, BOB.email.toUpperCase()).expect(200);
      await smtp.next(BOB.email);
      for (let attempt = 0; attempt < 5; attempt += 1) {
        await client.verifyOtp(guesser, wrong).expect(200);
      }
    }

    const refused = await client.verifyOtp(holder, code).expect(200);
    expect(refused.body).toMatchObject({
      success: false,
      reply_body: expect.stringContaining('4 tries left'),
      visitor_profile: { account_login: { logged_in: false } },
    });
  });
});
