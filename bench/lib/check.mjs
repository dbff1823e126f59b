// Before any load: the baseline must answer what the service answers, or the comparison is void.
import { isDeepStrictEqual } from 'node:util';

async function call(server, method, path, headers, body) {
  const response = await fetch(server.url + path, {
    method,
    headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    body,
  });
  const json = await response.json();
  delete json.datetime;
  return { status: response.status, json };
}

const keys = (value) =>
  value && typeof value === 'object' ? Object.keys(value).sort().join(',') : typeof value;

/**
 * GETs must be equal but for `datetime`; a reply (two different rows) must have the same fields.
 * `service` and `baseline` are `{ server, headers }`.
 */
export async function checkSameAnswers(endpoints, service, baseline) {
  for (const [name, endpoint] of Object.entries(endpoints)) {
    const path = endpoint.path();
    const a = await call(service.server, endpoint.method, path, service.headers, endpoint.body);
    const b = await call(baseline.server, endpoint.method, path, baseline.headers, endpoint.body);
    const same =
      endpoint.method === 'GET'
        ? a.status === b.status && isDeepStrictEqual(a.json, b.json)
        : a.status === b.status &&
          keys(a.json) === keys(b.json) &&
          keys(a.json.data) === keys(b.json.data);
    if (!same || a.status >= 300) {
      throw new Error(
        `${name}: the baseline does not answer like the service\nservice ${a.status}: ${JSON.stringify(a.json).slice(0, 600)}\nbaseline ${b.status}: ${JSON.stringify(b.json).slice(0, 600)}`,
      );
    }
  }
}
