// A generic moderation service: Wallery POSTs the post as JSON and reads
// labels and scores back. For an operator's own model behind a small HTTP
// server. The request:
//   { "post": { "text": "…", "pictures": ["https://…"], "author": "ana", "network": "mastodon" } }
// the answer, either form:
//   { "model": "my-model 3", "labels": [{ "label": "spam", "score": 0.93 }] }
//   { "model": "my-model 3", "labels": { "spam": 0.93, "hate": 0.01 } }
import { Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { BadAnswerError, postJson, type ProviderAdapter } from './provider.js';

export interface HttpModerationOptions {
  url: string;
  /** sent as `Authorization: Bearer …` when set */
  token?: string;
  /** what to call the model when the answer does not say */
  model: string;
}

const Score = Type.Number({ minimum: 0, maximum: 1 });
const Answer = Compile(
  Type.Object({
    model: Type.Optional(Type.String()),
    labels: Type.Union([
      Type.Array(Type.Object({ label: Type.String(), score: Score })),
      Type.Record(Type.String(), Score),
    ]),
  }),
);

export function httpModeration(options: HttpModerationOptions): ProviderAdapter {
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  return {
    defaultModel: options.model,
    async classify(input, signal) {
      const answer = await postJson(options.url, { post: input }, headers, signal);
      if (!Answer.Check(answer)) {
        throw new BadAnswerError('not a moderation answer (labels with scores from 0 to 1)');
      }
      const labels = Array.isArray(answer.labels)
        ? answer.labels
        : Object.entries(answer.labels).map(([label, score]) => ({ label, score }));
      return { model: answer.model ?? options.model, labels };
    },
  };
}
