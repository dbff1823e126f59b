/** Settings → Single sign-on and Trusted login. */
export const securitySettingsMessages = {
  'settings.sso.title': 'Single sign-on',
  'settings.sso.description':
    'Let your team sign in with your identity provider (OpenID Connect). Only owners manage this.',
  'settings.sso.issuer': 'Issuer URL',
  'settings.sso.issuerHelp':
    'For example https://login.example.com. Its discovery document is read when you save.',
  'settings.sso.clientId': 'Client ID',
  'settings.sso.clientSecret': 'Client secret',
  'settings.sso.secretKept': 'Stored and hidden. Leave empty to keep it.',
  'settings.sso.secretNew': 'Stored encrypted; never shown again.',
  'settings.sso.domains': 'Allowed email domains',
  'settings.sso.domainsHelp':
    'People with these addresses join on their first sign-in. Press Enter after each domain.',
  'settings.sso.role': 'Role of new members',
  'settings.sso.roleAgent': 'Agent',
  'settings.sso.roleAdmin': 'Admin',
  'settings.sso.enforce': 'Require single sign-on',
  'settings.sso.enforceHelp': 'Members can no longer log in with a password. Owners still can.',
  'settings.sso.callback': 'Redirect URI to register at the provider: {url}',
  'settings.sso.loginLink': 'Sign-in link for your team: {url}',
  'settings.sso.saved': 'Single sign-on was saved.',

  'settings.trusted.title': 'Trusted login',
  'settings.trusted.example': 'Request example',
  'settings.trusted.exampleHint':
    'Your backend sends this once it knows who the visitor is: the widget key of the site, the visitor_uid the widget got from init, the customer’s address, and the secret in the header (keep it on your server).',
  'settings.trusted.description':
    'Your own server vouches for a signed-in visitor, so the widget knows who they are.',
  'settings.trusted.state': 'Status',
  'settings.trusted.on': 'On',
  'settings.trusted.off': 'Off',
  'settings.trusted.enabled': 'Trusted login on',
  'settings.trusted.switchedOn': 'Trusted login was switched on.',
  'settings.trusted.switchedOff': 'Trusted login was switched off.',
  'settings.trusted.secretSet': 'A secret is set (it starts with {prefix}).',
  'settings.trusted.noSecret': 'No secret yet: generate one before switching trusted login on.',
  'settings.trusted.endpoint': 'Your server calls',
  'settings.trusted.header': 'with the secret in the header',
  'settings.trusted.generate': 'Generate secret',
  'settings.trusted.regenerate': 'Generate a new secret',
  'settings.trusted.regenerateTitle': 'Replace the trusted-login secret?',
  'settings.trusted.regenerateMessage':
    'The current secret stops working at once: trusted logins fail until your server sends the new one.',
  'settings.trusted.secretTitle': 'The new secret',
  'settings.trusted.secretOnce':
    'Copy it now into your server: it is shown only once. Any earlier secret stops working.',
  'settings.trusted.secret': 'Trusted login secret',
} as const;
