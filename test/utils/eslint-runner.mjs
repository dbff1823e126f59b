// Lints several texts with the project's own ESLint config in ONE process (for
// test/utils/eslint.ts): the type-aware parser builds the TypeScript program once for all of
// them, where one `eslint --stdin` per text builds it again each time (a few seconds of CPU each).
// Reads `[{ "file": "src/…", "text": "…" }]` on stdin (`text` absent: the file as it stands),
// writes `[{ "file", "messages" }]` in the same order on stdout.
import { ESLint } from 'eslint';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const jobs = JSON.parse(input);
const eslint = new ESLint({ cwd: process.cwd() });
const results = [];
for (const job of jobs) {
  const [result] =
    job.text === undefined
      ? await eslint.lintFiles([job.file])
      : await eslint.lintText(job.text, { filePath: job.file });
  results.push({ file: job.file, messages: result.messages });
}
process.stdout.write(JSON.stringify(results));
