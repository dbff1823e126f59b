export type Plan = 'free' | 'pro' | 'business';
export const PLANS: readonly Plan[] = ['free', 'pro', 'business'];

export const FEATURES = [
  'chat',
  'ticketing',
  'appointments',
  'data_lookup',
  'visitor_account_login',
  'trusted_login',
] as const;
export type Feature = (typeof FEATURES)[number];

/** What each plan includes (DESIGN section 4): each plan adds to the one before. */
export const PLAN_FEATURES: Record<Plan, readonly Feature[]> = {
  free: ['chat'],
  pro: ['chat', 'ticketing', 'appointments'],
  business: [
    'chat',
    'ticketing',
    'appointments',
    'data_lookup',
    'visitor_account_login',
    'trusted_login',
  ],
};

export const FEATURE_NAMES: Record<Feature, string> = {
  chat: 'Live chat',
  ticketing: 'Ticketing',
  appointments: 'Appointments',
  data_lookup: 'Data lookup',
  visitor_account_login: 'Visitor account login',
  trusted_login: 'Trusted visitor login',
};

export function planIncludes(plan: Plan, feature: Feature): boolean {
  return PLAN_FEATURES[plan].includes(feature);
}
