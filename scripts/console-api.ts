// The console's typed client, generated from Wallery's own OpenAPI document:
// the management API part of it (paths below /api/manage/v1, the prefix
// taken off) becomes web/console/src/api/schema.d.ts (openapi-typescript),
// and each operation's least role (`x-wallery-role`) becomes
// web/console/src/api/access.gen.ts, from which the console decides what a
// token may see and do. Run `npm run gen:console-api` after changing the
// management API; test/web/console-api.test.ts fails while the committed
// files differ from what this makes. The feed form's connector catalogue —
// each connector kind of the document's feed body with its network, docs
// page, connection network and fields (label, hint, input, required) — becomes
// web/console/src/api/connectors.gen.ts: the console's feed form is made from
// it (web/ may not import src/schemas at run time).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import * as prettier from 'prettier';
import { buildServer } from '../src/http/server.js';
import { MANAGE_PREFIX } from '../src/http/manage/index.js';
import { CONNECTORS } from '../src/ingest/registry.js';
import { HTTP_URL } from '../src/schemas/fields.js';
import { ChangeBus } from '../src/store/changes.js';
import { openStore } from '../src/store/store.js';

export const SCHEMA_FILE = fileURLToPath(new URL('../web/console/src/api/schema.d.ts', import.meta.url));
export const ACCESS_FILE = fileURLToPath(new URL('../web/console/src/api/access.gen.ts', import.meta.url));
export const CONNECTORS_FILE = fileURLToPath(new URL('../web/console/src/api/connectors.gen.ts', import.meta.url));

type Json = Record<string, unknown>;
interface Doc {
  paths: Record<string, Record<string, Json>>;
  [key: string]: unknown;
}

/** The server's OpenAPI document, from a server on an empty in-memory store (nothing is served). */
export async function serverDocument(): Promise<Doc> {
  const store = openStore({ kind: 'sqlite', path: ':memory:' });
  const app = await buildServer({ store, now: () => Date.now(), changes: new ChangeBus() });
  try {
    await app.ready();
    return JSON.parse(JSON.stringify(app.swagger())) as Doc;
  } finally {
    await app.close();
    await store.close();
  }
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/** One setting of a connector as the feed form asks for it. */
export interface CatalogueField {
  name: string;
  /** the form's label (the schema's `title`; the name when it has none) */
  title: string;
  /** the hint under it (the schema's `description`) */
  description: string;
  required: boolean;
  /** connection: a picker of the account's connections of the kind's network; list: comma-separated strings */
  input: 'text' | 'url' | 'number' | 'checkbox' | 'select' | 'list' | 'connection';
  /** a select's choices: each literal with its `title` */
  options?: { value: string; label: string }[];
  placeholder?: string;
  min?: number;
  max?: number;
  maxLength?: number;
  /** an optional base URL override: shown under "Advanced" */
  advanced?: boolean;
  /** shown (and then needed when `required`) only while another field has one of these values (`x-when`) */
  when?: { field: string; values: string[] };
}
/** One connector kind as the feed form offers it. */
export interface CatalogueKind {
  kind: string;
  /** the Network list's entry (the schema's `title`) */
  title: string;
  description: string;
  /** the network a feed of this kind is recorded under (`source`, the connector's `network`) */
  source: string;
  /** its page in the documentation, below /guide (`x-docs`) */
  docs: string | null;
  /** the connection network it reads with (`x-network` of the object or of its connectionId), null if none */
  network: string | null;
  /** groups of fields of which exactly one is set (`x-one-of`) */
  oneOf: string[][];
  /** groups of fields of which at least one is set (`x-any-of`) */
  anyOf: string[][];
  fields: CatalogueField[];
}

const isUrlPattern = (s: Json) => s.pattern === HTTP_URL || s.format === 'uri';

/** A property schema's choices when it is a literal or a union of literals (as the document writes them). */
function choicesOf(s: Json): { value: string; label: string }[] | null {
  const literals = Array.isArray(s.anyOf) ? (s.anyOf as Json[]) : [s];
  const out: { value: string; label: string }[] = [];
  for (const l of literals) {
    const values = l.enum ?? (l.const !== undefined ? [l.const] : null);
    if (!Array.isArray(values)) return null;
    for (const v of values) out.push({ value: String(v), label: typeof l.title === 'string' ? l.title : String(v) });
  }
  return out.length > 0 ? out : null;
}

function fieldOf(kind: string, name: string, s: Json, required: boolean, network: string | null): CatalogueField {
  const choices = choicesOf(s);
  let input: CatalogueField['input'];
  if (name === 'connectionId' && network) input = 'connection';
  else if (choices) input = 'select';
  else if (s.type === 'boolean') input = 'checkbox';
  else if (s.type === 'integer' || s.type === 'number') input = 'number';
  else if (s.type === 'string') input = isUrlPattern(s) ? 'url' : 'text';
  else if (s.type === 'array' && (s.items as Json | undefined)?.type === 'string') input = 'list';
  else throw new Error(`connector ${kind}: the feed form has no input for ${name} (${JSON.stringify(s)})`);
  const examples = s.examples as unknown[] | undefined;
  // `x-when: { mode: 'uploads' }` (or a list of values): a field of one mode of the kind
  const when = Object.entries((s['x-when'] as Record<string, unknown> | undefined) ?? {})[0];
  return {
    name,
    title: typeof s.title === 'string' ? s.title : name,
    description: typeof s.description === 'string' ? s.description : '',
    required,
    input,
    ...(choices && input === 'select' ? { options: choices } : {}),
    ...(examples?.length ? { placeholder: String(examples[0]) } : {}),
    ...(typeof s.minimum === 'number' && input === 'number' ? { min: s.minimum } : {}),
    ...(typeof s.maximum === 'number' && input === 'number' ? { max: s.maximum } : {}),
    ...(typeof s.maxLength === 'number' ? { maxLength: s.maxLength } : {}),
    ...(!required && input === 'url' && /Url$/.test(name) ? { advanced: true } : {}),
    ...(when ? { when: { field: when[0], values: ([] as unknown[]).concat(when[1]).map(String) } } : {}),
  };
}

/** The connector kinds of the feed body (`POST /walls/{wallId}/feeds`, `connector`) of the server's document. */
export function connectorCatalogue(doc: Doc): CatalogueKind[] {
  const body = doc.paths[`${MANAGE_PREFIX}/walls/{wallId}/feeds`]?.post?.requestBody as Json | undefined;
  const connector = (body as { content?: { 'application/json'?: { schema?: Json } } } | undefined)?.content?.[
    'application/json'
  ]?.schema?.properties as Record<string, Json> | undefined;
  const flat = (s: Json): Json[] => (Array.isArray(s.anyOf) ? (s.anyOf as Json[]).flatMap(flat) : [s]);
  const objects = flat(connector?.connector ?? {}).filter((s) => s.type === 'object');
  if (objects.length === 0) throw new Error('the feed body of the OpenAPI document has no connector settings');
  const sources = CONNECTORS as Record<string, { network: string } | undefined>;
  return objects.map((o) => {
    const properties = o.properties as Record<string, Json>;
    const kind = String(choicesOf(properties.kind ?? {})?.[0]?.value);
    const required = new Set((o.required as string[] | undefined) ?? []);
    // a kind that needs a connection names its network on the object; one that may read with one, on connectionId
    const named = o['x-network'] ?? properties.connectionId?.['x-network'];
    const network = typeof named === 'string' ? named : null;
    return {
      kind,
      title: typeof o.title === 'string' ? o.title : kind,
      description: typeof o.description === 'string' ? o.description : '',
      source: sources[kind]?.network ?? (typeof o.title === 'string' ? o.title : kind),
      docs: typeof o['x-docs'] === 'string' ? o['x-docs'] : null,
      network,
      oneOf: (o['x-one-of'] as string[][] | undefined) ?? [],
      anyOf: (o['x-any-of'] as string[][] | undefined) ?? [],
      fields: Object.entries(properties)
        .filter(([name]) => name !== 'kind')
        .map(([name, s]) => fieldOf(kind, name, s, required.has(name) || s['x-when-required'] === true, network)),
    };
  });
}

/** The generated files' text, formatted as the repository formats. */
export async function generateConsoleApi(): Promise<{ schema: string; access: string; connectors: string }> {
  const doc = await serverDocument();
  const paths: Doc['paths'] = {};
  const roles: Record<string, string> = {};
  for (const [path, ops] of Object.entries(doc.paths)) {
    if (!path.startsWith(`${MANAGE_PREFIX}/`)) continue;
    const short = path.slice(MANAGE_PREFIX.length);
    paths[short] = ops;
    for (const [method, op] of Object.entries(ops)) {
      if (!METHODS.includes(method)) continue;
      roles[`${method.toUpperCase()} ${short}`] = String(op['x-wallery-role']);
    }
  }
  const ast = await openapiTS({ ...doc, paths } as never, { alphabetize: true });
  const banner =
    '// Generated by `npm run gen:console-api` (scripts/console-api.ts) from the management API part of\n' +
    "// Wallery's OpenAPI document, paths relative to /api/manage/v1. Do not edit.\n";
  const sorted = Object.fromEntries(Object.entries(roles).sort(([a], [b]) => a.localeCompare(b)));
  const access =
    `${banner}import type { Role } from './roles';\n\n` +
    '/** The least role of each management operation (`x-wallery-role`), keyed `METHOD /path`. */\n' +
    `export const OPERATION_ROLES = ${JSON.stringify(sorted, null, 2)} as const satisfies Record<string, Role>;\n\n` +
    'export type Operation = keyof typeof OPERATION_ROLES;\n';
  const connectors =
    '// Generated by `npm run gen:console-api` (scripts/console-api.ts) from the connector settings of the\n' +
    "// feed body in Wallery's OpenAPI document (src/schemas/connectors.ts). Do not edit.\n\n" +
    '/** One setting of a connector as the feed form asks for it. */\n' +
    `export interface CatalogueField ${interfaceText('CatalogueField')}\n\n` +
    '/** One connector kind as the feed form offers it. */\n' +
    `export interface CatalogueKind ${interfaceText('CatalogueKind')}\n\n` +
    "/** Every connector kind, in the order of the schema's union. */\n" +
    `export const CONNECTOR_CATALOGUE: readonly CatalogueKind[] = ${JSON.stringify(connectorCatalogue(doc), null, 2)};\n`;
  const options = { ...(await prettier.resolveConfig(SCHEMA_FILE)), parser: 'typescript' as const };
  return {
    schema: await prettier.format(banner + astToString(ast), options),
    access: await prettier.format(access, options),
    connectors: await prettier.format(connectors, options),
  };
}

/** The body of one of this file's catalogue interfaces, as written above (one declaration, two files). */
function interfaceText(name: string): string {
  const source = readFileSync(fileURLToPath(import.meta.url), 'utf8');
  const m = new RegExp(`export interface ${name} (\\{[\\s\\S]*?\\n\\})`).exec(source);
  if (!m) throw new Error(`scripts/console-api.ts: interface ${name} not found`);
  return m[1]!;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { schema, access, connectors } = await generateConsoleApi();
  writeFileSync(SCHEMA_FILE, schema);
  writeFileSync(ACCESS_FILE, access);
  writeFileSync(CONNECTORS_FILE, connectors);
  console.log(`wrote ${SCHEMA_FILE}, ${ACCESS_FILE} and ${CONNECTORS_FILE}`);
}
