import request from 'supertest';
import { registerOrganization, type Registered } from '../factories/identity';
import { type AppProcess, startApp } from '../utils/app-process';
import { agentOf, dataLookupClient, type Session } from '../utils/data-lookup-client';
import { createTestDatabase, dropTestDatabase } from '../utils/database';
import {
  ADA,
  createOwnerDatabase,
  type OwnerDatabase,
  shopSettings,
} from '../utils/owner-database';

const REFUSED = 'The database could not be read (refused by policy).';

/**
 * Where a tenant may point data lookup (issue 15): not at the service's own database, loopback or
 * private addresses, a Unix socket or a file-naming URL parameter, unless the operator allows the
 * target in DATA_LOOKUP_ALLOWED_HOSTS; refused with a generic category, never the driver's text.
 * Settings saved while a target was allowed are checked again when they are used.
 */
describe('data lookup target policy', () => {
  let databaseUrl: string;
  let owner: OwnerDatabase;
  let org: Registered;
  let ada: Session;
  /** The owner database under the name the allowing app lets through. */
  let viaLocalhost: string;
  let serverPort: string;

  const put = (app: AppProcess, url: string, driver = 'postgres') =>
    request(app.url)
      .put(`/api/agent/sites/${org.site.id}/data-lookup`)
      .set(agentOf(org))
      .send({ ...shopSettings(url), connection: { driver, url } });

  const expectRefused = (res: request.Response, message = REFUSED) => {
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ 'connection.url': [message] });
    // Nothing of the driver's or the network's own words reaches the tenant.
    expect(JSON.stringify(res.body)).not.toMatch(
      /127\.0\.0\.1|ECONN|10\.0\.0\.1|\/var\/run|EACCES/,
    );
  };

  beforeAll(async () => {
    owner = await createOwnerDatabase();
    databaseUrl = await createTestDatabase();
    serverPort = new URL(databaseUrl).port;
    const local = new URL(owner.readerUrl);
    local.hostname = 'localhost';
    viaLocalhost = local.toString();
  });

  afterAll(async () => {
    await dropTestDatabase(databaseUrl);
    await owner?.drop();
  });

  describe('with the owner database allowed by name and port', () => {
    let app: AppProcess;

    beforeAll(async () => {
      app = await startApp({
        DATABASE_URL: databaseUrl,
        DATA_LOOKUP_ALLOWED_HOSTS: `localhost:${serverPort}`,
      });
      org = await registerOrganization(app.url, 'Policy');
    });
    afterAll(async () => {
      await app?.stop();
    });

    it('accepts the allowed host and reads from it', async () => {
      const client = dataLookupClient(app.url);
      await client.setUp(org, shopSettings(viaLocalhost));
      ada = await client.visitorOf(ADA.email, org.site);
      const res = await client.search(ada).expect(200);
      expect(res.body.success).toBe(true);
    });

    it('refuses the same server under an address the entry does not name', async () => {
      expectRefused(await put(app, owner.readerUrl));
    });

    it('says a wrong password is an authentication failure, without the driver text', async () => {
      const wrong = new URL(viaLocalhost);
      wrong.password = 'wrong';
      const res = await put(app, wrong.toString());
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({
        'connection.url': ['The database could not be read (authentication failed).'],
      });
      expect(JSON.stringify(res.body)).not.toMatch(/password authentication|28P01/);
    });
  });

  describe('with nothing allowed', () => {
    let app: AppProcess;

    beforeAll(async () => {
      app = await startApp({ DATABASE_URL: databaseUrl, DATA_LOOKUP_ALLOWED_HOSTS: '' });
    });
    afterAll(async () => {
      await app?.stop();
    });

    it('checks settings saved before again when they are used: 503 on the widget, 422 on test', async () => {
      const client = dataLookupClient(app.url);
      const search = await client.search(ada).expect(503);
      expect(search.body).toMatchObject({ error_code: 'service_unavailable' });
      expect(search.body.message).toBe(
        "The site's database may not be reached from this service. Please try again later.",
      );
      const test = await request(app.url)
        .post(`/api/agent/sites/${org.site.id}/data-lookup/test`)
        .set(agentOf(org));
      expectRefused(test);
    });

    it("refuses the service's own database", async () => {
      expectRefused(await put(app, databaseUrl));
      const ownByName = new URL(databaseUrl);
      ownByName.hostname = 'localhost';
      expectRefused(await put(app, ownByName.toString()));
    });

    it('refuses loopback and private addresses before connecting', async () => {
      expectRefused(await put(app, owner.readerUrl));
      expectRefused(await put(app, viaLocalhost));
      expectRefused(await put(app, 'mysql://reader:pw@127.0.0.1:3306/shop', 'mysql'));
      for (const host of ['10.0.0.1', '[::ffff:10.0.0.1]', '169.254.169.254', '[fd00::1]']) {
        const started = Date.now();
        expectRefused(await put(app, `postgres://reader:pw@${host}:5432/shop`));
        // Refused by the check, not after the 3 s connect timeout of a real attempt.
        expect(Date.now() - started).toBeLessThan(2000);
      }
    });

    it('refuses Unix sockets and file parameters in the URL', async () => {
      for (const url of [
        'postgres://reader:pw@%2Fvar%2Frun%2Fpostgresql/shop',
        'postgres://reader:pw@db.example/shop?host=/var/run/postgresql',
        'postgres://reader:pw@db.example/shop?sslcert=/etc/passwd',
        'postgres://reader:pw@db.example/shop?sslmode=verify-full&sslrootcert=/etc/ssl/x.pem',
        'postgres://reader:pw@db.example/shop?passfile=/root/.pgpass',
        'mysql://reader:pw@db.example/shop?socketPath=/run/mysqld/mysqld.sock',
        'mysql://reader:pw@db.example/shop?ssl={"ca":"/etc/passwd"}',
      ]) {
        expectRefused(await put(app, url, url.startsWith('mysql') ? 'mysql' : 'postgres'));
      }
    });

    it('still takes a URL with only the TLS switch (to a public name)', async () => {
      // db.example never resolves: the policy let it through to the network, which fails.
      const res = await put(app, 'postgres://reader:pw@db.example/shop?sslmode=require');
      expect(res.status).toBe(422);
      expect(res.body.errors['connection.url'][0]).toMatch(/\((unreachable|timeout)\)\.$/);
    });
  });
});
