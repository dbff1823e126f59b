// JSON over HTTP as the benchmarks call the service: throws on any answer but 2xx.

export async function request(url, method, body, token, extraHeaders = {}) {
  const response = await fetch(url, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...extraHeaders,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** A new organization with its owner, registered over the API (its `token` and `site`). */
export function registerOwner(url, name = 'Bench Shop', label = `${Date.now()}`) {
  return request(`${url}/api/agent/auth/register`, 'POST', {
    organization_name: name,
    name: 'Olivia Owner',
    email: `owner-${label}@bench.example`,
    password: `pw-${label}-bench`,
  });
}
