// A real OpenID Connect provider (oidc-provider, ESM-only, hence this child process) for the
// single sign-on tests. Env: OIDC_CLIENTS, a JSON array of clients ({ client_id, client_secret,
// redirect_uris }). Any login name is an account: the name is its email address (verified,
// unless it starts with `unverified.`). Prints `{"port":n}` once it listens on 127.0.0.1.
import http from 'node:http';
import Provider from 'oidc-provider';

const clients = JSON.parse(process.env.OIDC_CLIENTS ?? '[]');
const server = http.createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address();
const issuer = `http://127.0.0.1:${port}`;

const provider = new Provider(issuer, {
  clients: clients.map((client) => ({
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_basic',
    ...client,
  })),
  cookies: { keys: ['sso-test-cookie-key-0123456789'] },
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  features: { devInteractions: { enabled: true } },
  pkce: { required: () => true },
  async findAccount(_ctx, id) {
    return {
      accountId: id,
      async claims() {
        return {
          sub: `account-${id}`,
          email: id,
          email_verified: !id.startsWith('unverified.'),
          name: `SSO ${id.split('@')[0]}`,
        };
      },
    };
  },
});
provider.on('server_error', (_ctx, error) => console.error(String(error)));
// How often the discovery document was read (the app caches it): GET /test/discoveries.
let discoveries = 0;
const handle = provider.callback();
server.on('request', (request, response) => {
  if (request.url === '/test/discoveries') {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ discoveries }));
    return;
  }
  if (request.url?.startsWith('/.well-known/openid-configuration')) discoveries += 1;
  handle(request, response);
});
process.stdout.write(`${JSON.stringify({ port, issuer })}\n`);
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
