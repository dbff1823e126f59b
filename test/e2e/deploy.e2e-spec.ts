import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ROOT } from '../utils/test-env';

/* eslint-disable @typescript-eslint/no-explicit-any -- Kubernetes objects, read as parsed YAML */
type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  spec?: any;
} & Record<string, any>;

const DIR = path.join(ROOT, 'deploy', 'kubernetes');
const manifests: Manifest[] = readdirSync(DIR)
  .filter((file) => file.endsWith('.yaml'))
  .flatMap((file) =>
    parseAllDocuments(readFileSync(path.join(DIR, file), 'utf8')).map((document) => {
      if (document.errors.length > 0) throw new Error(`${file}: ${document.errors[0].message}`);
      return document.toJS() as Manifest;
    }),
  );

function one(kind: string): Manifest {
  const found = manifests.filter((manifest) => manifest.kind === kind);
  expect(found).toHaveLength(1);
  return found[0];
}

function matches(selector: Record<string, string>, labels: Record<string, string>): boolean {
  return Object.entries(selector).every(([key, value]) => labels[key] === value);
}

/**
 * deploy/kubernetes (DESIGN section 13): several replicas on an external PostgreSQL and Redis,
 * probes on the health routes, Socket.IO on WebSocket only so no sticky sessions are needed, a
 * disruption budget, resources, a Service and a Secret template. Parsed, not applied: there is no
 * cluster here.
 */
describe('Kubernetes manifests', () => {
  const deployment = one('Deployment');
  const pod = deployment.spec.template.spec;
  const container = pod.containers[0];
  const env = Object.fromEntries(
    (container.env as { name: string; value: string }[]).map((entry) => [entry.name, entry.value]),
  );
  const secret = one('Secret');

  it('runs several replicas of the image in production, replacing them one at a time', () => {
    expect(deployment.apiVersion).toBe('apps/v1');
    expect(deployment.spec.replicas).toBeGreaterThanOrEqual(2);
    expect(deployment.spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
    expect(
      matches(deployment.spec.selector.matchLabels, deployment.spec.template.metadata.labels),
    ).toBe(true);
    expect(pod.containers).toHaveLength(1);
    expect(env.NODE_ENV).toBe('production');
    expect(container.ports).toEqual([{ name: 'http', containerPort: Number(env.PORT) }]);
  });

  it('takes DATABASE_URL, REDIS_URL and SECRETS_KEY from the Secret, so nothing embedded starts', () => {
    expect(container.envFrom).toEqual([{ secretRef: { name: secret.metadata.name } }]);
    expect(Object.keys(secret.stringData)).toEqual(
      expect.arrayContaining(['DATABASE_URL', 'REDIS_URL', 'SECRETS_KEY']),
    );
    expect(secret.stringData.DATABASE_URL).toMatch(/^postgres:\/\//);
    expect(secret.stringData.REDIS_URL).toMatch(/^rediss?:\/\//);
    // A template: no real secret committed.
    expect(secret.stringData.SECRETS_KEY).toMatch(/CHANGE-ME/);
  });

  it('is ready on /health/ready and alive on /health/live', () => {
    expect(container.readinessProbe.httpGet).toEqual({ path: '/health/ready', port: 'http' });
    expect(container.livenessProbe.httpGet).toEqual({ path: '/health/live', port: 'http' });
    expect(container.startupProbe.httpGet.path).toBe('/health/live');
  });

  it('runs Socket.IO on WebSocket only, and the Service has no session affinity', () => {
    expect(env.SOCKET_TRANSPORTS).toBe('websocket');
    const service = one('Service');
    expect(service.spec.sessionAffinity ?? 'None').toBe('None');
    expect(matches(service.spec.selector, deployment.spec.template.metadata.labels)).toBe(true);
    expect(service.spec.ports[0].targetPort).toBe('http');
  });

  it('keeps all but one replica through voluntary disruptions', () => {
    const budget = one('PodDisruptionBudget');
    expect(budget.apiVersion).toBe('policy/v1');
    expect(budget.spec.maxUnavailable).toBe(1);
    expect(
      matches(budget.spec.selector.matchLabels, deployment.spec.template.metadata.labels),
    ).toBe(true);
  });

  it('declares resources, runs unprivileged and leaves time for a graceful stop', () => {
    expect(container.resources.requests).toEqual(
      expect.objectContaining({ cpu: expect.any(String), memory: expect.any(String) }),
    );
    expect(container.resources.limits.memory).toEqual(expect.any(String));
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    // The service exits at most 20 s after SIGTERM; the preStop pause comes before it.
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(30);
  });

  it('lists every resource but the Secret in the kustomization', () => {
    const kustomization = parseAllDocuments(
      readFileSync(path.join(DIR, 'kustomization.yaml'), 'utf8'),
    )[0].toJS() as { resources: string[] };
    expect(kustomization.resources.sort()).toEqual(['deployment.yaml', 'pdb.yaml', 'service.yaml']);
  });
});
