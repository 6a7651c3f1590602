// The parse worker (runs in a worker thread of parse-pool.ts): one upstream
// response in, its posts as stored rows out. Everything CPU-heavy of a poll
// happens here — decoding the body, parsing its JSON or XML, mapping items,
// sanitizing their HTML, normalizing them into rows — by the connector's own
// document parser, so a parser can be swapped without the pool or the
// serving thread noticing.
import type { IngestedPost } from '../store/ingest.js';
import type { ConnectorSettings } from '../schemas/connectors.js';
import type { UpstreamDocument } from './connector.js';
import { detectRowLanguages, judgeRows } from './arrival.js';
import type { TextDetectors } from '../domain/rules.js';
import { loadTextDetectors } from '../domain/text-detectors.js';
import { decodeBody } from './charset.js';
import { postRows } from './normalize.js';
import { connectorFor } from './registry.js';

export interface ParseTask {
  settings: ConnectorSettings;
  /** which of the connector's `documents` reads the response */
  document: string;
  response: {
    url: string;
    status: number;
    headers: Record<string, string>;
    /** the body as it came (transferred to the worker, not copied) */
    bytes: Uint8Array;
  };
  maxItems: number;
  /** the wall filters profanity: profane posts arrive hidden */
  wallProfanity: boolean;
  /** the wall's moderation rules (stored JSON): new posts are judged here, off the serving thread */
  rules: string;
  now: number;
}

export interface ParseResult {
  rows: IngestedPost[];
  /** upstream items that could not be read */
  skipped: number;
  /** posts that could not be normalized into rows */
  leftOut: number;
  warnings: string[];
  /** upstream ids of posts withheld at their authors' request */
  withheld: string[];
  meta: unknown;
}

function decoded({ bytes, ...head }: ParseTask['response']): UpstreamDocument {
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { ...head, text: decodeBody(body, head.headers['content-type']) };
}

/** A task: the text detectors (eld's and AFINN's tables) are loaded once per worker, with its first. */
export default async function parseResponse(task: ParseTask): Promise<ParseResult> {
  return parseWith(task, await loadTextDetectors());
}

/** One response parsed, its posts' languages detected and judged by the wall's rules. */
export function parseWith(task: ParseTask, detectors: TextDetectors): ParseResult {
  const connector = connectorFor(task.settings);
  const parser = Object.hasOwn(connector.documents, task.document) ? connector.documents[task.document] : undefined;
  if (!parser) throw new Error(`the ${task.settings.kind} connector has no document "${task.document}"`);
  const doc = decoded(task.response);
  // the text is all that is read from here on: let the bytes go (as large as the text, or twice)
  task.response.bytes = new Uint8Array(0);
  const content = parser(doc, task.settings, { maxItems: task.maxItems });
  const { rows, leftOut } = postRows(content.posts, {
    network: connector.network,
    wallProfanity: task.wallProfanity,
    now: task.now,
    maxItems: task.maxItems,
  });
  detectRowLanguages(rows, detectors);
  judgeRows(rows, task.rules, detectors);
  return {
    rows,
    skipped: content.skipped,
    leftOut,
    warnings: content.warnings ?? [],
    withheld: content.withheld ?? [],
    meta: content.meta,
  };
}
