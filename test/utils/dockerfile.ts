/** One instruction of a Dockerfile: `COPY --from=build a b` is { keyword: 'COPY', flags, args }. */
export interface Instruction {
  keyword: string;
  flags: Record<string, string>;
  args: string[];
  /** The text after the keyword (and its flags), as written: a RUN's command. */
  text: string;
}

export interface Stage {
  image: string;
  name: string | undefined;
  instructions: Instruction[];
}

/**
 * Reads a Dockerfile into its stages: comments and parser directives dropped, continuation lines
 * joined, `--flag=value` options split off, exec-form (JSON array) arguments parsed. Enough for
 * the recipe checks of test/e2e/containers.e2e-spec.ts, not a general implementation.
 */
export function parseDockerfile(source: string): Stage[] {
  const lines: string[] = [];
  let pending = '';
  for (const raw of source.split('\n')) {
    if (/^\s*#/.test(raw)) continue;
    const line = pending + raw;
    if (/\\\s*$/.test(line)) {
      pending = line.replace(/\\\s*$/, ' ');
      continue;
    }
    pending = '';
    if (line.trim()) lines.push(line.trim());
  }
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, keyword, rest] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    let text = rest;
    const flags: Record<string, string> = {};
    for (
      let flag = /^--([\w-]+)=(\S+)\s*/.exec(text);
      flag;
      flag = /^--([\w-]+)=(\S+)\s*/.exec(text)
    ) {
      flags[flag[1]] = flag[2];
      text = text.slice(flag[0].length);
    }
    const args = text.startsWith('[') ? (JSON.parse(text) as string[]) : text.split(/\s+/);
    const instruction = { keyword: keyword.toUpperCase(), flags, args, text };
    if (instruction.keyword === 'FROM') {
      const as = args.findIndex((arg) => arg.toUpperCase() === 'AS');
      stages.push({ image: args[0], name: as >= 0 ? args[as + 1] : undefined, instructions: [] });
    } else if (stages.length === 0) {
      throw new Error(`${instruction.keyword} before the first FROM`);
    } else {
      stages[stages.length - 1].instructions.push(instruction);
    }
  }
  return stages;
}
