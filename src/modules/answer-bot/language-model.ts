import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';

/** A passage the bot retrieved: what the model may answer from, and what it cites. */
export interface Passage {
  title: string;
  text: string;
  url: string | null;
}

/** What came back: an answer, a refusal to answer from these passages, or nothing in time. */
export type Generation =
  | { kind: 'answer'; text: string; latencyMs: number }
  | { kind: 'handoff'; latencyMs: number }
  | { kind: 'failed'; reason: string; latencyMs: number }
  | { kind: 'timed_out'; latencyMs: number };

/** The word the model answers with when the passages do not answer the question. */
const HANDOFF = 'HANDOFF';

/**
 * An OpenAI-compatible chat-completions endpoint (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL): off
 * without them. The prompt allows only the numbered passages, asks for their numbers as
 * citations and for HANDOFF when they do not answer; a reply past LLM_TIMEOUT_MS is abandoned.
 */
@Injectable()
export class LanguageModel {
  constructor(private readonly config: AppConfig) {}

  get configured(): boolean {
    return Boolean(this.config.env.LLM_BASE_URL && this.config.env.LLM_MODEL);
  }

  get model(): string {
    return this.config.env.LLM_MODEL ?? '';
  }

  async answer(input: {
    question: string;
    passages: Passage[];
    guidance: string | null;
    forbiddenTopics: string[];
    language: string;
  }): Promise<Generation> {
    const started = Date.now();
    const elapsed = () => Date.now() - started;
    const { LLM_BASE_URL, LLM_API_KEY, LLM_TIMEOUT_MS } = this.config.env;
    const numbered = input.passages
      .map((passage, index) => `[${index + 1}] ${passage.title}\n${passage.text}`)
      .join('\n\n');
    const rules = [
      'You answer visitors of a website in its support chat.',
      'Answer ONLY from the numbered passages below; never from anything else you know.',
      'Cite the passages you used by their number in square brackets, like [1].',
      `If the passages do not answer the question, reply with exactly ${HANDOFF} and nothing else.`,
      `Reply in the visitor's language (${input.language}), in at most 120 words, plainly.`,
      ...(input.forbiddenTopics.length > 0
        ? [
            `Never answer about these topics; reply ${HANDOFF} instead: ${input.forbiddenTopics.join('; ')}.`,
          ]
        : []),
      ...(input.guidance ? [`The site owner's guidance: ${input.guidance}`] : []),
    ].join('\n');
    try {
      const response = await fetch(`${LLM_BASE_URL!.replace(/\/+$/, '')}/chat/completions`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ...(LLM_API_KEY ? { Authorization: `Bearer ${LLM_API_KEY}` } : {}),
        },
        body: JSON.stringify({
          model: this.model,
          temperature: 0,
          messages: [
            { role: 'system', content: `${rules}\n\nPassages:\n${numbered}` },
            { role: 'user', content: input.question },
          ],
        }),
        signal: AbortSignal.timeout(LLM_TIMEOUT_MS),
      });
      if (!response.ok) {
        return { kind: 'failed', reason: `status ${response.status}`, latencyMs: elapsed() };
      }
      const body = (await response.json()) as {
        choices?: { message?: { content?: unknown } }[];
      };
      const text = body.choices?.[0]?.message?.content;
      if (typeof text !== 'string' || !text.trim()) {
        return { kind: 'failed', reason: 'an empty answer', latencyMs: elapsed() };
      }
      if (text.trim().toUpperCase().startsWith(HANDOFF)) {
        return { kind: 'handoff', latencyMs: elapsed() };
      }
      return { kind: 'answer', text: text.trim(), latencyMs: elapsed() };
    } catch (error) {
      const name = (error as { name?: string }).name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        return { kind: 'timed_out', latencyMs: elapsed() };
      }
      return {
        kind: 'failed',
        reason: error instanceof Error ? error.message : String(error),
        latencyMs: elapsed(),
      };
    }
  }
}
