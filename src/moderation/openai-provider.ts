// The OpenAI-style moderation protocol: POST {base}/v1/moderations with the
// post's text (and pictures, for multimodal models), answered with each
// category's score. Spoken by OpenAI's own service and by several hosted and
// self-hosted servers; the base URL, key and model are the operator's.
import { Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { BadAnswerError, postJson, type ModerationInput, type ProviderAdapter } from './provider.js';

export interface OpenAiModerationOptions {
  /** the server, without /v1/moderations: `https://api.openai.com` */
  baseUrl: string;
  apiKey?: string;
  /** the model asked for (`omni-moderation-latest`) */
  model: string;
  /** send pictures as `image_url` parts (multimodal models); text only when false */
  pictures: boolean;
}

const Answer = Compile(
  Type.Object({
    model: Type.Optional(Type.String()),
    results: Type.Array(
      Type.Object({
        category_scores: Type.Record(Type.String(), Type.Number()),
      }),
      { minItems: 1 },
    ),
  }),
);

/** The request body: one input of parts (text, then pictures), or the text alone. */
export function moderationRequest(input: ModerationInput, options: OpenAiModerationOptions) {
  const pictures = options.pictures ? input.pictures : [];
  if (pictures.length === 0) return { model: options.model, input: input.text };
  return {
    model: options.model,
    input: [{ type: 'text', text: input.text }, ...pictures.map((url) => ({ type: 'image_url', image_url: { url } }))],
  };
}

export function openAiModeration(options: OpenAiModerationOptions): ProviderAdapter {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/v1/moderations`;
  const headers: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
  return {
    defaultModel: options.model,
    async classify(input, signal) {
      const answer = await postJson(url, moderationRequest(input, options), headers, signal);
      if (!Answer.Check(answer)) throw new BadAnswerError('not a moderation answer (no results with category_scores)');
      // one input, one result; a server that splits the input answers per part: a category scores its highest
      const scores = new Map<string, number>();
      for (const r of answer.results) {
        for (const [label, score] of Object.entries(r.category_scores)) {
          scores.set(label, Math.max(scores.get(label) ?? 0, score));
        }
      }
      return {
        model: answer.model ?? options.model,
        labels: [...scores].map(([label, score]) => ({ label, score })),
      };
    },
  };
}
