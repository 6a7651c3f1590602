// Validation against the TypeBox schemas: every bad field of a value at once,
// each with the wording of its schema's `x-error`. The management API checks
// path, query and body with it; the CLI checks its options with it.
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { ConnectorSettings, connectorProblem } from './connectors.js';
import { RULE_SCHEMAS, RULES_MAX } from './rules.js';
import { RULE_KINDS } from '../domain/rules.js';
import { spoken } from '../domain/lists.js';
import { invalid, type FieldError } from '../domain/errors.js';
import { checkBranding } from '../domain/branding.js';

type Node = Record<string, unknown>;

interface Checker {
  Check(value: unknown): boolean;
  Errors(value: unknown): Iterable<RawError>;
}

interface RawError {
  keyword: string;
  schemaPath: string;
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

/**
 * A value's errors against a schema. An unknown property fails
 * `additionalProperties: false` as a schema of its own (keyword `boolean`,
 * at the property's path): it is told as the `additionalProperties` error
 * of its object, which callers name once. (TypeBox stops after a few errors:
 * with many unknown properties these may be the only ones it gives.)
 */
function* schemaErrors(checker: Checker, value: unknown): Iterable<RawError> {
  for (const e of checker.Errors(value)) {
    if (e.keyword === 'boolean' && e.schemaPath.endsWith('/additionalProperties')) {
      const cut = e.instancePath.lastIndexOf('/');
      const name = e.instancePath
        .slice(cut + 1)
        .replace(/~1/g, '/')
        .replace(/~0/g, '~');
      yield {
        ...e,
        keyword: 'additionalProperties',
        instancePath: e.instancePath.slice(0, cut),
        params: { additionalProperties: [name] },
      };
    } else yield e;
  }
}

/**
 * The fields an error is about, below its path: the missing ones of a
 * `required` error, the unknown ones of an `additionalProperties` error;
 * `[null]` for any other error (the value at its path itself).
 */
function namedFields(e: RawError): (string | null)[] {
  if (e.keyword === 'required') return (e.params.requiredProperties as string[] | undefined) ?? [];
  if (e.keyword === 'additionalProperties') return (e.params.additionalProperties as string[] | undefined) ?? [];
  return [null];
}

const compiled = new WeakMap<object, Checker>();

function checkerOf(schema: TSchema): Checker {
  let c = compiled.get(schema);
  if (!c) {
    c = Compile(schema) as unknown as Checker;
    compiled.set(schema, c);
  }
  return c;
}

/**
 * Checks that go past what a schema can say, named by a property's
 * `x-check`: they run on the value whenever it is present, and their
 * errors replace the schema's for that field.
 */
const CUSTOM_CHECKS: Record<string, (value: unknown, field: string) => FieldError[]> = {
  connector: connectorErrors,
  rules: rulesErrors,
  // a wall's branding: each field by the domain's own rules (colours, fonts, the variables' allow-list)
  branding: (value, field) => (value === null ? [] : checkBranding(value, field).problems),
};

/**
 * A wall's rule list: each rule against its kind's schema (`rules[2].words`),
 * and ids used once. The management API (PUT …/rules) and the data file
 * (a wall's `rules`) check rule lists with it.
 */
export function rulesErrors(value: unknown, field: string): FieldError[] {
  if (!Array.isArray(value) || value.length > RULES_MAX)
    return [{ field, message: `${field} must be a list of at most ${RULES_MAX} rules` }];
  const out: FieldError[] = [];
  const ids = new Set<string>();
  value.forEach((rule: unknown, i) => {
    const at = `${field}[${i}]`;
    if (rule === null || typeof rule !== 'object' || Array.isArray(rule)) {
      out.push({ field: at, message: `${at} must be a rule object` });
      return;
    }
    const kind = (rule as { kind?: unknown }).kind;
    const schema = typeof kind === 'string' && Object.hasOwn(RULE_SCHEMAS, kind) ? RULE_SCHEMAS[kind] : undefined;
    if (!schema) {
      out.push({ field: `${at}.kind`, message: `${at}.kind must be ${spoken(RULE_KINDS)}` });
      return;
    }
    const checker = checkerOf(schema);
    if (!checker.Check(rule)) {
      const before = out.length;
      const seen = new Set<string>();
      for (const e of schemaErrors(checker, rule)) {
        for (const name of namedFields(e)) {
          const segs = pointer(e.instancePath);
          const top = name ?? segs[0];
          const f = top === undefined ? at : `${at}.${top}`;
          if (seen.has(f)) continue;
          seen.add(f);
          const own =
            top === undefined ? undefined : (schema as unknown as { properties: Record<string, Node> }).properties[top];
          const message =
            e.keyword === 'required'
              ? `${f} is required`
              : e.keyword === 'additionalProperties'
                ? `${f} is not a field of a ${kind} rule`
                : typeof own?.['x-error'] === 'string'
                  ? `${at}: ${own['x-error']}`
                  : `${f} ${e.message}`;
          out.push({ field: f, message });
        }
      }
      // never let a rule the schema refuses through unnamed
      if (out.length === before) out.push({ field: at, message: `${at} is not a ${kind} rule as its kind takes it` });
    }
    // spam: an account rule that looks for neither a bot nor a young account would match nothing
    const account = rule as { kind: string; bot?: unknown; minAgeDays?: unknown };
    if (account.kind === 'account' && account.bot === false && account.minAgeDays === undefined)
      out.push({ field: `${at}.bot`, message: `${at}: an account rule needs bot true, or minAgeDays, or both` });
    const id = (rule as { id?: unknown }).id;
    if (typeof id === 'string') {
      if (ids.has(id)) out.push({ field: `${at}.id`, message: `${at}.id ${id} is used by an earlier rule` });
      ids.add(id);
    }
  });
  return out;
}

const CONNECTOR_BRANCHES = ConnectorSettings.anyOf as unknown as Node[];

/** A connector setting: the fields of its kind's schema, then the rules connectorProblem() adds. */
function connectorErrors(value: unknown, field: string): FieldError[] {
  if (value === null) return [];
  const kind = (value as { kind?: unknown } | null)?.kind;
  const branch = CONNECTOR_BRANCHES.find((b) => (b.properties as Record<string, Node>).kind?.const === kind);
  if (branch && typeof value === 'object' && !Array.isArray(value)) {
    const checker = checkerOf(branch as unknown as TSchema);
    if (!checker.Check(value)) {
      const out = new Map<string, string>();
      for (const e of schemaErrors(checker, value)) {
        for (const name of namedFields(e)) {
          const segs = [...pointer(e.instancePath), ...(name === null ? [] : [name])];
          const f = segs.length === 0 ? field : `${field}.${fieldName(segs, field)}`;
          const what =
            e.keyword === 'required'
              ? 'is required'
              : e.keyword === 'additionalProperties'
                ? `is not a setting of a ${String(kind)} connector`
                : e.keyword === 'pattern' && String(e.params.pattern).startsWith('^[hH][tT][tT][pP]')
                  ? 'must be an absolute http or https URL'
                  : e.message;
          if (!out.has(f)) out.set(f, `${f} ${what}`);
        }
      }
      return [...out].map(([f, message]) => ({ field: f, message }));
    }
  }
  const problem = connectorProblem(value);
  return problem === null ? [] : [{ field, message: `${field}: ${problem}` }];
}

const pointer = (p: string) =>
  p === ''
    ? []
    : p
        .slice(1)
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));

/** `['tags', '2', 'left']` → `tags[2].left`; the part's name for the whole value. */
function fieldName(segs: string[], part: string): string {
  if (segs.length === 0) return part;
  return segs.map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

/** The schema node at a JSON pointer such as `#/properties/cta/anyOf/1/properties/url`. */
function nodeAtSchemaPath(schema: Node, schemaPath: string): { node: Node; path: string[] } | null {
  let node: unknown = schema;
  const path = pointer(schemaPath.replace(/^#/, ''));
  for (const seg of path) {
    if (node === null || typeof node !== 'object') return null;
    node = (node as Node)[seg];
  }
  return node !== null && typeof node === 'object' ? { node: node as Node, path } : null;
}

/** The `x-error` of the failing node, or of the union it is a branch of. */
function xErrorFor(schema: Node, schemaPath: string): string | undefined {
  const found = nodeAtSchemaPath(schema, schemaPath);
  if (!found) return undefined;
  let { path } = found;
  for (;;) {
    const at = nodeAtSchemaPath(schema, path.length === 0 ? '#' : `#/${path.join('/')}`);
    const message = at?.node['x-error'];
    if (typeof message === 'string') return message;
    const n = path.length;
    // step out of a union branch or an array's items, never out of a property
    if (n >= 2 && /^(anyOf|oneOf|allOf)$/.test(path[n - 2]!) && /^\d+$/.test(path[n - 1]!)) path = path.slice(0, -2);
    else if (n >= 1 && path[n - 1] === 'items') path = path.slice(0, -1);
    else return undefined;
  }
}

const ROOT_MESSAGES: Record<string, string> = {
  body: 'body must be a JSON object',
  query: 'query is invalid',
  params: 'path is invalid',
};

interface Candidate {
  segs: string[];
  message: string;
  /** required / unknown-field errors name a field of their own and are never folded */
  own: boolean;
}

/** Every bad field of `value` against `schema` (empty when it is valid). `part` names the whole value. */
export function fieldErrorsOf(schema: TSchema, value: unknown, part: 'body' | 'query' | 'params'): FieldError[] {
  const root = schema as unknown as Node;
  const properties = (root.properties ?? {}) as Record<string, Node>;
  const checked = Object.entries(properties).filter(([, node]) => typeof node['x-check'] === 'string');
  const checkedNames = new Set(checked.map(([name]) => name));
  const checker = checkerOf(schema);
  const candidates: Candidate[] = [];

  if (!checker.Check(value)) {
    for (const e of schemaErrors(checker, value)) {
      const segs = pointer(e.instancePath);
      if (segs.length > 0 && checkedNames.has(segs[0]!)) {
        const node = properties[segs[0]!]!;
        candidates.push({ segs: [segs[0]!], message: String(node['x-error'] ?? `${segs[0]} is invalid`), own: true });
        continue;
      }
      if (e.keyword === 'required' || e.keyword === 'additionalProperties') {
        const what = e.keyword === 'required' ? 'is required' : 'is not a known field';
        for (const name of namedFields(e)) {
          const s = name === null ? segs : [...segs, name];
          candidates.push({ segs: s, message: `${fieldName(s, part)} ${what}`, own: true });
        }
        continue;
      }
      const field = fieldName(segs, part);
      const message =
        xErrorFor(root, e.schemaPath) ??
        (segs.length === 0 ? ROOT_MESSAGES[part] : undefined) ??
        `${field} ${e.message}`;
      candidates.push({ segs, message, own: false });
    }
  }

  // A union that failed as a whole is reported through the branch that got
  // furthest: an error about a deeper field wins over one about its parent.
  const deeper = (a: string[], b: string[]) => b.length > a.length && a.every((s, i) => b[i] === s);
  const kept = candidates.filter((c) => c.own || !candidates.some((o) => deeper(c.segs, o.segs)));

  const out = new Map<string, string>();
  for (const c of kept) {
    const field = fieldName(c.segs, part);
    if (!out.has(field)) out.set(field, c.message);
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [name, node] of checked) {
      const v = (value as Record<string, unknown>)[name];
      if (v === undefined) continue;
      const problems = CUSTOM_CHECKS[node['x-check'] as string]?.(v, name) ?? [];
      if (problems.length > 0) out.delete(name);
      for (const p of problems) out.set(p.field, p.message);
    }
  }
  return [...out].map(([field, message]) => ({ field, message }));
}

/** Throws a 400 listing every bad field, or returns the value typed as the schema says. */
export function validated<T>(schema: TSchema, value: unknown, part: 'body' | 'query' | 'params'): T {
  const errors = fieldErrorsOf(schema, value, part);
  if (errors.length > 0) throw invalid(errors);
  return value as T;
}
