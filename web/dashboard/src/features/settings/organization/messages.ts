/** Settings → Organization: the organization's name and how new chats reach the agents. */
export const organizationSettingsMessages = {
  'settings.organization.title': 'Organization',
  'settings.organization.description': 'Your organization and how new chats reach your agents.',
  'settings.organization.details': 'Organization',
  'settings.organization.name': 'Organization name',
  'settings.organization.nameEmpty': 'Give your organization a name.',
  'settings.organization.nameTooLong': 'Keep the name to 100 characters or fewer.',
  'settings.organization.plan': 'Plan: {plan}',
  'settings.organization.assignment': 'Automatic assignment',
  'settings.organization.assignmentHint':
    'New chats go to online agents in turn, each up to their capacity; the rest wait unassigned.',
  'settings.organization.autoAssign': 'Assign new chats automatically',
  'settings.organization.capacity': 'Capacity per agent',
  'settings.organization.capacityHint': 'Open chats an agent takes at most (1 to 100).',
  'settings.organization.save': 'Save organization',

  'settings.organization.security': 'Security',
  'settings.organization.requireTwoFactor': 'Require two-factor authentication for every member',
  'settings.organization.requireTwoFactorHint':
    'Members without it are sent to set it up before they can do anything else, you included.',
} as const;
