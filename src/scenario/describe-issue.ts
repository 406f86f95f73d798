/**
 * Turns a zod issue into one line a person can act on: the path inside the file and what was expected there
 * ("config.features.autoCompat: unknown key; expected one of autoCompact, reactiveCompact, ...").
 *
 * Pure. Reads zod 4's schema definitions (`_zod.def`) only to list the keys or values that would have been
 * accepted; when the schema at a path cannot be found, the issue's own message is used.
 */
import type { z } from 'zod';
import { formatPath } from '../fake-api/index.ts';

type Issue = z.core.$ZodIssue;
type AnySchema = z.core.$ZodType;
type Def = { type: string; [key: string]: unknown };

const WRAPPERS = new Set(['optional', 'default', 'prefault', 'nullable', 'readonly', 'catch', 'nonoptional']);

function defOf(schema: AnySchema): Def {
  return schema._zod.def as unknown as Def;
}

function unwrap(schema: AnySchema): AnySchema {
  let current = schema;
  for (let guard = 0; guard < 20; guard++) {
    const def = defOf(current);
    if (WRAPPERS.has(def.type)) current = def.innerType as AnySchema;
    else if (def.type === 'pipe' && defOf(def.in as AnySchema).type !== 'unknown') current = def.in as AnySchema;
    else return current;
  }
  return current;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** The option of a union that `value` was meant for: same kind, and the same discriminator value if any. */
function chooseOption(def: Def, value: unknown): AnySchema | undefined {
  const options = (def.options as AnySchema[]).map(unwrap);
  const discriminator = def.discriminator as string | undefined;
  const kind = kindOf(value);
  return options.find((option) => {
    const optionDef = defOf(option);
    if (optionDef.type !== kind && !(kind === 'object' && optionDef.type === 'record')) return false;
    if (!discriminator || kind !== 'object') return true;
    const tagSchema = (optionDef.shape as Record<string, AnySchema>)[discriminator];
    return tagSchema !== undefined && literalValues(tagSchema).includes((value as Record<string, unknown>)[discriminator]);
  });
}

function literalValues(schema: AnySchema): unknown[] {
  const def = defOf(unwrap(schema));
  if (def.type === 'literal') return def.values as unknown[];
  if (def.type === 'enum') return Object.values(def.entries as Record<string, unknown>);
  return [];
}

/** The schema that validated `path`, following the data through unions. */
export function schemaAt(root: AnySchema, data: unknown, path: ReadonlyArray<PropertyKey>): AnySchema | undefined {
  let schema: AnySchema | undefined = unwrap(root);
  let value = data;
  for (const key of path) {
    if (!schema) return undefined;
    let def = defOf(schema);
    if (def.type === 'union') {
      schema = chooseOption(def, value);
      if (!schema) return undefined;
      def = defOf(schema);
    }
    if (def.type === 'object') schema = (def.shape as Record<string, AnySchema>)[String(key)];
    else if (def.type === 'array') schema = def.element as AnySchema;
    else if (def.type === 'record') schema = def.valueType as AnySchema;
    else return undefined;
    value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key as never] : undefined;
    schema = schema ? unwrap(schema) : undefined;
  }
  return schema;
}

function valueAt(data: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let value = data;
  for (const key of path) value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key as never] : undefined;
  return value;
}

function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 40 ? `${kindOf(value)} ${text.slice(0, 37)}...` : `${kindOf(value)} ${text}`;
}

function article(kind: string): string {
  return /^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`;
}

function describeKinds(schema: AnySchema | undefined): string | null {
  if (!schema) return null;
  const def = defOf(schema);
  if (def.type !== 'union') return null;
  const kinds = [...new Set((def.options as AnySchema[]).map((o) => defOf(unwrap(o)).type))];
  return kinds.map(article).join(' or ');
}

function describeBound(issue: Extract<Issue, { code: 'too_small' | 'too_big' }>, input: unknown): string {
  const bound = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum);
  const small = issue.code === 'too_small';
  if (issue.origin === 'string' && small && bound === 1) return `expected a non-empty string`;
  if (issue.origin === 'array') return `expected ${small ? 'at least' : 'at most'} ${bound} item(s), got ${Array.isArray(input) ? input.length : '?'}`;
  if (issue.origin === 'number' || issue.origin === 'int') {
    const op = small ? (issue.inclusive ? '>=' : '>') : issue.inclusive ? '<=' : '<';
    return `expected a number ${op} ${bound}, got ${shown(input)}`;
  }
  return issue.message;
}

/**
 * One issue as `{path, expected}`.
 *
 * @example
 * describeIssue(result.error.issues[0], scenarioSchema, data) // { path: 'params.maxTurns', expected: 'expected a number > 0, got number 0' }
 */
export function describeIssue(issue: Issue, root: AnySchema, data: unknown): { path: string; expected: string } {
  const { path, expected } = describeAt(issue, root, data);
  return { path: formatPath(path), expected };
}

function describeAt(issue: Issue, root: AnySchema, data: unknown): { path: PropertyKey[]; expected: string } {
  const input = valueAt(data, issue.path);
  const here = [...issue.path];
  switch (issue.code) {
    case 'unrecognized_keys': {
      const schema = schemaAt(root, data, issue.path);
      const known = schema && defOf(schema).type === 'object' ? Object.keys(defOf(schema).shape as object) : [];
      const others = issue.keys.length > 1 ? ` (also unknown: ${issue.keys.slice(1).join(', ')})` : '';
      return { path: [...here, issue.keys[0]], expected: `unknown key${others}; expected one of: ${known.join(', ') || '(none)'}` };
    }
    case 'invalid_type':
      return {
        path: here,
        expected: input === undefined ? `missing; expected ${article(issue.expected)}` : `expected ${article(issue.expected)}, got ${shown(input)}`,
      };
    case 'invalid_value':
      return { path: here, expected: `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, got ${shown(input)}` };
    case 'invalid_union':
      return describeUnion(issue, root, data, input);
    case 'too_small':
    case 'too_big':
      return { path: here, expected: describeBound(issue, input) };
    default:
      return { path: here, expected: issue.message };
  }
}

/**
 * A union names the discriminator's accepted values; or, when the data's kind picks one option (an array for
 * `string | array`), the first problem inside that option, which is what the author got wrong.
 */
function describeUnion(issue: Extract<Issue, { code: 'invalid_union' }>, root: AnySchema, data: unknown, input: unknown): { path: PropertyKey[]; expected: string } {
  const here = [...issue.path];
  const schema = schemaAt(root, data, issue.path);
  const discriminator = (issue as { discriminator?: string }).discriminator;
  if (discriminator && schema) {
    const values = (defOf(schema).options as AnySchema[]).flatMap((o) => literalValues((defOf(unwrap(o)).shape as Record<string, AnySchema>)[discriminator]));
    const got = input !== null && typeof input === 'object' ? (input as Record<string, unknown>)[discriminator] : undefined;
    return { path: [...here, discriminator], expected: `expected one of ${values.map((v) => JSON.stringify(v)).join(', ')}, got ${shown(got)}` };
  }
  if (schema && defOf(schema).type === 'union') {
    const options = defOf(schema).options as AnySchema[];
    const chosen = chooseOption(defOf(schema), input);
    const index = chosen ? options.findIndex((option) => unwrap(option) === chosen) : -1;
    const nested = index >= 0 ? issue.errors[index]?.[0] : undefined;
    if (chosen && nested) {
      const inner = describeAt(nested, chosen, input);
      return { path: [...here, ...inner.path], expected: inner.expected };
    }
  }
  const kinds = describeKinds(schema);
  if (kinds) return { path: here, expected: `expected ${kinds}, got ${shown(input)}` };
  // zod's own wording for a tag it does not know, when the schema could not be followed: keep its list.
  const tag = /^Invalid discriminator value\. Expected (.*)$/.exec(issue.message);
  if (tag) return { path: here, expected: `expected one of ${tag[1].split(' | ').map((v) => v.replace(/^'(.*)'$/, '"$1"')).join(', ')}, got ${shown(input)}` };
  return { path: here, expected: issue.message };
}
