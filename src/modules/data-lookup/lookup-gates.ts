/** What every widget route that reads the owner's database says of its gates (OpenAPI text). */
export const LOOKUP_GATES =
  ' Needs the feature in the plan (403 `feature_not_in_plan`) and data lookup switched on for the site (403 `forbidden`); an owner database that cannot be reached or does not answer within 3 s is a 503 `service_unavailable`.';
