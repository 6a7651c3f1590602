// OpenAPI conformance of real responses: each answer is held against the
// document the server publishes at /openapi.json (its own `app.swagger()`).
// An answer conforms when
// - its request matches an operation (method and path template) and the
//   operation lists its status — or it matches none and one of
//   `components.responses` is marked (`x-status`) with that status;
// - every header it carries is documented on that response (transport
//   headers aside), every header marked required is there, and each value
//   passes the header's schema;
// - its media type is listed (none when the response has no content), a JSON
//   body validates against the schema (which forbids extra properties), and an
//   XML body has the root `xml`, holding only the envelope fields the schema
//   names, `responseCode` equal to the status.
// Schemas are compiled with ajv (JSON Schema 2020-12, OpenAPI 3.1's dialect)
// once per document and process; paths are matched by find-my-way, the
// server's own router, with the server's options.
import { createHash } from 'node:crypto';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { XMLParser } from 'fast-xml-parser';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { recordViolations } from './violations.js';

type Json = Record<string, unknown>;
interface Header {
  required?: boolean;
  schema?: Json;
}
interface Response {
  headers?: Record<string, Header>;
  content?: Record<string, { schema?: Json }>;
  'x-status'?: number;
}
interface Operation {
  responses?: Record<string, Response>;
}
export interface OpenApiDocument {
  paths?: Record<string, Record<string, Operation>>;
  components?: { responses?: Record<string, Response> };
}

/** One request and its answer, as the client saw it. */
export interface Exchange {
  method: string;
  /** path and query */
  url: string;
  status: number;
  headers: Headers;
  body: string;
}

/** Headers of the transport, not of the API (Content-Type is the media type, checked as such). */
const TRANSPORT_HEADERS = new Set([
  'connection',
  'content-length',
  'content-type',
  'date',
  'keep-alive',
  'transfer-encoding',
]);

/** The docs' own addresses are left out of the document on purpose (src/http/openapi.ts). */
const isDocsPath = (path: string) => path === '/openapi.json' || path === '/docs' || path.startsWith('/docs/');

const OPERATION_METHODS: HTTPMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;

function newAjv(coerceTypes: boolean): Ajv2020 {
  // the schemas themselves are checked by the document test (validateSchema would compile the
  // 2020-12 meta-schema in every process, seconds of work)
  const ajv = new Ajv2020({ strict: false, allErrors: true, coerceTypes, validateSchema: false });
  (addFormats as unknown as FormatsPlugin)(ajv);
  return ajv;
}

export class Conformance {
  private readonly router = FindMyWay({
    ignoreTrailingSlash: true,
    ignoreDuplicateSlashes: true,
    maxParamLength: 1000,
  });
  private readonly bodies = newAjv(false);
  private readonly headerValues = newAjv(true);
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly unrouted = new Map<number, { name: string; response: Response }>();

  constructor(private readonly doc: OpenApiDocument) {
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      const route = path.replace(/\{(\w+)\}/g, ':$1');
      for (const [method, operation] of Object.entries(item)) {
        const name = `${method.toUpperCase()} ${path}`;
        this.router.on(method.toUpperCase() as HTTPMethod, route, () => undefined, { name, operation });
      }
    }
    for (const [name, response] of Object.entries(doc.components?.responses ?? {}))
      if (typeof response['x-status'] === 'number') this.unrouted.set(response['x-status'], { name, response });
  }

  /** Every way the answer departs from the document; empty when it conforms. */
  check(exchange: Exchange): string[] {
    const path = exchange.url.split('?', 1)[0] ?? '/';
    if (isDocsPath(path)) return [];
    const label = `${exchange.method} ${exchange.url} → ${exchange.status}`;
    const method = exchange.method === 'HEAD' ? 'GET' : exchange.method;
    const found = OPERATION_METHODS.includes(method as HTTPMethod) ? this.find(method, path) : null;
    let name: string;
    let response: Response | undefined;
    if (found) {
      name = `${found.name} ${exchange.status}`;
      response = found.operation.responses?.[String(exchange.status)];
      if (!response) return [`${label}: status ${exchange.status} is not documented for ${found.name}`];
    } else {
      const entry = this.unrouted.get(exchange.status);
      if (!entry)
        return [`${label}: matches no operation, and no components.responses entry has x-status ${exchange.status}`];
      name = `components.responses.${entry.name}`;
      response = entry.response;
    }
    return [
      ...this.checkHeaders(response, exchange, name),
      ...this.checkBody(response, exchange, name, exchange.method === 'HEAD'),
    ].map((problem) => `${label}: ${problem}`);
  }

  private find(method: string, path: string): { name: string; operation: Operation } | null {
    try {
      const match = this.router.find(method as HTTPMethod, path);
      return (match?.store as { name: string; operation: Operation } | undefined) ?? null;
    } catch {
      return null; // a path that cannot be decoded matches no operation
    }
  }

  private checkHeaders(response: Response, exchange: Exchange, name: string): string[] {
    const problems: string[] = [];
    const documented = new Map(Object.entries(response.headers ?? {}).map(([h, d]) => [h.toLowerCase(), d]));
    for (const [header, value] of exchange.headers) {
      if (TRANSPORT_HEADERS.has(header)) continue;
      const doc = documented.get(header);
      if (!doc) {
        problems.push(`header ${header} is not documented on ${name}`);
        continue;
      }
      const validate = this.validator(this.headerValues, `header ${JSON.stringify(doc.schema ?? {})}`, () => ({
        type: 'object',
        properties: { value: doc.schema ?? {} },
      }));
      if (!validate({ value })) problems.push(`header ${header}: ${JSON.stringify(value)} ${errorsText(validate)}`);
    }
    for (const [header, doc] of documented)
      if (doc.required && !exchange.headers.has(header)) problems.push(`required header ${header} is missing`);
    return problems;
  }

  private checkBody(response: Response, exchange: Exchange, name: string, head: boolean): string[] {
    const contentType = exchange.headers.get('content-type');
    const content = response.content;
    if (!content) {
      if (exchange.body !== '' || contentType !== null) return [`${name} has no content, yet a body came`];
      return [];
    }
    if (contentType === null) return head ? [] : [`no Content-Type, ${name} has content`];
    const media = contentType.split(';', 1)[0]!.trim().toLowerCase();
    const schema = content[media]?.schema;
    if (!schema) return [`media type ${media} is not documented on ${name}`];
    if (head) return [];
    if (media === 'application/xml') return xmlProblems(exchange, schema);
    if (media !== 'application/json') return [];
    let body: unknown;
    try {
      body = JSON.parse(exchange.body);
    } catch {
      return ['the body is not JSON'];
    }
    const validate = this.validator(this.bodies, `${name} ${media}`, () => schema);
    return validate(body) ? [] : [`the body departs from the schema of ${name}: ${errorsText(validate)}`];
  }

  private validator(ajv: Ajv2020, key: string, schema: () => Json): ValidateFunction {
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = ajv.compile(schema());
      this.compiled.set(key, validate);
    }
    return validate;
  }
}

function errorsText(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .map((e) => {
      const extra = e.keyword === 'additionalProperties' ? ` (${String(e.params.additionalProperty)})` : '';
      return `${e.instancePath || '/'} ${e.message ?? e.keyword}${extra}`;
    })
    .join('; ');
}

/** Reads the envelope only: the children of the root stay unparsed text (stop nodes), which keeps it cheap. */
const envelopeParser = new XMLParser({ preserveOrder: true, stopNodes: ['xml.*'], parseTagValue: false });

/**
 * XML: one root `xml`, only the envelope fields the schema names,
 * `responseCode` = the status. (Well-formedness and the tree below the
 * envelope are the XML suites' checks, test/helpers/xml.ts: a full validation
 * here would cost several milliseconds per list.)
 */
function xmlProblems(exchange: Exchange, schema: Json): string[] {
  const nodes = (envelopeParser.parse(exchange.body) as Json[]).filter((n) => !('?xml' in n) && !('#text' in n));
  const root = nodes.length === 1 ? nodes[0]! : undefined;
  if (!root || !('xml' in root)) return ['the XML body has no single root element <xml>'];
  const children = (root.xml as Json[]).filter((c) => !('#text' in c));
  const fields = new Set(Object.keys((schema.properties as Json | undefined) ?? {}));
  const problems = children
    .map((c) => Object.keys(c)[0]!)
    .filter((element) => !fields.has(element))
    .map((element) => `the XML envelope holds <${element}>, which the schema does not name`);
  const code = children.find((c) => 'responseCode' in c)?.responseCode as Json[] | undefined;
  const text = String(code?.[0]?.['#text'] ?? '');
  if (text !== String(exchange.status)) problems.push(`the XML responseCode ${text} is not the status`);
  return problems;
}

// ---------- per process: one compiled checker per distinct document ----------

const byDocument = new Map<string, Conformance>();

/** The checker of a document, compiled once per process for every server that publishes the same one. */
export function conformanceOf(doc: OpenApiDocument): Conformance {
  const text = JSON.stringify(doc);
  const key = createHash('sha1').update(text).digest('hex');
  let checker = byDocument.get(key);
  if (!checker) {
    checker = new Conformance(JSON.parse(text) as OpenApiDocument);
    byDocument.set(key, checker);
  }
  return checker;
}

// ---------- the hook of the API suites ----------

/** The test servers (by base URL) and the kind of server each is, registered when it starts. */
const servers = new Map<string, { kind: string; document: () => OpenApiDocument }>();
/** One checker per kind of server: every server `buildServer` makes publishes the same document. */
const checkers = new Map<string, Conformance>();
/** What the hook has done in this process (for measurement). */
export const conformanceStats = { responses: 0, milliseconds: 0 };

/** `kind` names the code that built the server; its document is read from the first server of that kind. */
export function registerDocument(baseUrl: string, kind: string, document: () => OpenApiDocument): void {
  servers.set(baseUrl, { kind, document });
}

export function unregisterDocument(baseUrl: string): void {
  servers.delete(baseUrl);
}

/** Checks an answer of a registered server and keeps what departs from its document. */
export function recordExchange(baseUrl: string, exchange: Exchange): void {
  const server = servers.get(baseUrl);
  if (!server) return;
  const start = performance.now();
  let checker = checkers.get(server.kind);
  if (!checker) {
    checker = conformanceOf(server.document());
    checkers.set(server.kind, checker);
  }
  recordViolations(checker.check(exchange));
  conformanceStats.responses++;
  conformanceStats.milliseconds += performance.now() - start;
}
