// A small JSON Schema checker for the keywords docs/events.schema.json uses (the same as
// crates/lesson/tests/it/events_schema.rs, in Rust): type, const, enum, minimum, maximum,
// required, properties, additionalProperties (false), items, allOf, oneOf, if/then and
// `#/$defs/` references. A keyword it does not know is a problem, so the schema cannot
// outgrow it silently. (No validator package: the e2e suite installs only playwright-core
// and axe-core.)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './harness.mjs';

export const SCHEMA = JSON.parse(readFileSync(join(ROOT, 'docs', 'events.schema.json'), 'utf8'));

const isType = (value, type) =>
  ({
    object: () => value !== null && typeof value === 'object' && !Array.isArray(value),
    array: () => Array.isArray(value),
    string: () => typeof value === 'string',
    number: () => typeof value === 'number',
    integer: () => Number.isInteger(value),
    boolean: () => typeof value === 'boolean',
    null: () => value === null,
  })[type]?.() ?? false;

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** The problems of `value` against `schema` (an empty list: valid). */
export function check(value, schema = SCHEMA, at = 'message', root = SCHEMA) {
  const problems = [];
  for (const [keyword, rule] of Object.entries(schema)) {
    switch (keyword) {
      case '$schema':
      case '$id':
      case 'title':
      case 'description':
      case '$defs':
      case 'then':
        break;
      case '$ref':
        problems.push(...check(value, root.$defs[rule.replace('#/$defs/', '')], at, root));
        break;
      case 'type':
        if (![rule].flat().some((t) => isType(value, t))) problems.push(`${at}: ${JSON.stringify(value)} is not ${rule}`);
        break;
      case 'const':
        if (!same(value, rule)) problems.push(`${at}: ${JSON.stringify(value)} is not ${JSON.stringify(rule)}`);
        break;
      case 'enum':
        if (!rule.some((r) => same(r, value))) problems.push(`${at}: ${JSON.stringify(value)} is not one of ${rule}`);
        break;
      case 'minimum':
        if (typeof value === 'number' && value < rule) problems.push(`${at}: ${value} < ${rule}`);
        break;
      case 'maximum':
        if (typeof value === 'number' && value > rule) problems.push(`${at}: ${value} > ${rule}`);
        break;
      case 'required':
        if (isType(value, 'object')) for (const name of rule) if (!(name in value)) problems.push(`${at}: \`${name}\` is missing`);
        break;
      case 'properties':
        if (isType(value, 'object'))
          for (const [name, sub] of Object.entries(rule))
            if (name in value) problems.push(...check(value[name], sub, `${at}.${name}`, root));
        break;
      case 'additionalProperties':
        if (rule === false && isType(value, 'object'))
          for (const name of Object.keys(value))
            if (!(name in (schema.properties ?? {}))) problems.push(`${at}: \`${name}\` is not in the schema`);
        break;
      case 'items':
        if (Array.isArray(value)) value.forEach((item, i) => problems.push(...check(item, rule, `${at}[${i}]`, root)));
        break;
      case 'allOf':
        for (const sub of rule) problems.push(...check(value, sub, at, root));
        break;
      case 'oneOf': {
        const valid = rule.filter((sub) => check(value, sub, at, root).length === 0).length;
        if (valid !== 1) problems.push(`${at}: valid against ${valid} of oneOf, not 1`);
        break;
      }
      case 'if':
        if (check(value, rule, at, root).length === 0 && schema.then) problems.push(...check(value, schema.then, at, root));
        break;
      default:
        problems.push(`${at}: the checker does not know \`${keyword}\``);
    }
  }
  return problems;
}
