/** Settings → API keys. */
export const apiKeysSettingsMessages = {
  'settings.apiKeys.title': 'API keys',
  'settings.apiKeys.description':
    'Keys for the public REST API. Give each integration only the abilities it needs.',
  'settings.apiKeys.create': 'Create an API key',
  'settings.apiKeys.createButton': 'Create key',
  'settings.apiKeys.createdTitle': 'The key "{name}" was created',
  'settings.apiKeys.shownOnce': 'Copy it now: it is shown only once and cannot be read again.',
  'settings.apiKeys.keyLabel': 'API key',
  'settings.apiKeys.name': 'Name',
  'settings.apiKeys.prefix': 'Key',
  'settings.apiKeys.abilities': 'Abilities',
  'settings.apiKeys.lastUsed': 'Last used',
  'settings.apiKeys.never': 'Never',
  'settings.apiKeys.empty': 'No API keys yet.',
  'settings.apiKeys.revoke': 'Revoke {name}',
  'settings.apiKeys.revokeTitle': 'Revoke this key?',
  'settings.apiKeys.revokeMessage':
    'Anything using "{name}" stops working at once. This cannot be undone.',
  'settings.apiKeys.revokeConfirm': 'Revoke key',
  'settings.apiKeys.revoked': 'The key was revoked.',
} as const;
