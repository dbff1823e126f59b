/** One sample line: `name{label="value",...} value`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  /** Family name -> TYPE (counter, gauge, histogram, summary, untyped). */
  types: Map<string, string>;
  samples: Sample[];
}

const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/y;
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)(\s+-?\d+)?$/;
const SUFFIXES = ['_bucket', '_sum', '_count', '_total', '_created'];

function unescape(value: string): string {
  return value.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
}

/**
 * A sample value as Prometheus reads it: a Go float, so `NaN` and `Inf` in any case. prom-client
 * writes `Nan` (seen on Node.js 24, whose event-loop delay histogram is NaN before its first
 * sample), which Prometheus accepts.
 */
function number(text: string): number {
  if (/^\+?inf$/i.test(text)) return Infinity;
  if (/^-inf$/i.test(text)) return -Infinity;
  if (/^nan$/i.test(text)) return NaN;
  const value = Number(text);
  if (Number.isNaN(value)) throw new Error(`not a sample value: ${text}`);
  return value;
}

/**
 * A strict reader of the Prometheus text exposition format (0.0.4): HELP and TYPE comments,
 * samples with escaped label values; every sample must belong to a family whose TYPE came first,
 * and a line it cannot read is an error rather than skipped.
 */
export function parsePrometheus(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const comment = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) ?(.*)$/.exec(line);
    if (comment) {
      if (comment[1] === 'TYPE') {
        if (!/^(counter|gauge|histogram|summary|untyped)$/.test(comment[3]))
          throw new Error(`bad TYPE line: ${line}`);
        types.set(comment[2], comment[3]);
      }
      continue;
    }
    if (line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const [, name, , body = '', value] = match;
    const labels: Record<string, string> = {};
    LABEL.lastIndex = 0;
    while (LABEL.lastIndex < body.length) {
      const label = LABEL.exec(body);
      if (!label) throw new Error(`bad labels: ${line}`);
      labels[label[1]] = unescape(label[2]);
    }
    const family = [
      name,
      ...SUFFIXES.filter((s) => name.endsWith(s)).map((s) => name.slice(0, -s.length)),
    ];
    if (!family.some((candidate) => types.has(candidate)))
      throw new Error(`sample of no declared family: ${line}`);
    samples.push({ name, labels, value: number(value) });
  }
  return { types, samples };
}

/** The value of the one sample named `name` whose labels include `labels`, or undefined. */
export function valueOf(
  exposition: Exposition,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const found = exposition.samples.filter(
    (sample) =>
      sample.name === name &&
      Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches several series`);
  return found[0]?.value;
}
