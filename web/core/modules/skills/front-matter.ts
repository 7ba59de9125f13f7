// SKILL.md front matter: a YAML mapping between `---` lines at the very start of the file. Parsed with the `yaml`
// package (no code execution, aliases capped) and type-checked: `name` and `description` are required; the other
// Agent Skills fields (license, compatibility, metadata, allowed-tools) are type-checked when present; other keys
// are ignored. Only name and description (and the source) ever reach the model unasked.
import { parseDocument } from 'yaml';
import { HarnessError } from '../../contracts';
import { SKILL_MAX_DESCRIPTION_CHARS, SKILL_NAME_PATTERN } from './skill-limits';

export interface SkillFrontMatter {
  name: string;
  description: string;
  body: string;
}

const fail = (source: string, why: string) => new HarnessError('E_SKILL_FRONT_MATTER', `${source}: ${why}`, { source });

export function parseSkillFile(text: string, source: string): SkillFrontMatter {
  const src = text.replace(/^\uFEFF/, '');
  const open = /^---[ \t]*\r?\n/.exec(src);
  if (!open)
    throw fail(source, 'the file must start with a "---" line, then YAML with name and description, then "---".');
  const rest = src.slice(open[0].length);
  const close = /^---[ \t]*(?:\r?\n|$)/m.exec(rest);
  if (!close) throw fail(source, 'the front matter is never closed with a "---" line.');
  const doc = parseDocument(rest.slice(0, close.index), { uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0)
    throw fail(source, `the front matter is not valid YAML (${doc.errors[0]!.message.split('\n')[0]}).`);
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 0 });
  } catch (error) {
    throw fail(source, `the front matter could not be read (${(error as Error).message}).`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw fail(source, 'the front matter must be a YAML mapping with name and description.');
  const meta = data as Record<string, unknown>;
  const { name, description } = meta;
  if (typeof name !== 'string' || !SKILL_NAME_PATTERN.test(name)) {
    throw fail(
      source,
      `name must be 1–64 ASCII letters, digits, "-" or "_" (got ${JSON.stringify(name)?.slice(0, 80)}).`,
    );
  }
  if (typeof description !== 'string' || description.trim() === '')
    throw fail(source, 'description must be a non-empty string.');
  if (Array.from(description).length > SKILL_MAX_DESCRIPTION_CHARS)
    throw fail(source, `description is longer than ${SKILL_MAX_DESCRIPTION_CHARS} characters.`);
  for (const key of ['license', 'compatibility', 'allowed-tools'] as const) {
    if (meta[key] !== undefined && typeof meta[key] !== 'string') throw fail(source, `${key} must be a string.`);
  }
  const extra = meta.metadata;
  if (
    extra !== undefined &&
    (typeof extra !== 'object' ||
      extra === null ||
      Array.isArray(extra) ||
      Object.values(extra).some((v) => typeof v !== 'string'))
  ) {
    throw fail(source, 'metadata must be a mapping of strings.');
  }
  return {
    name,
    description: description.trim(),
    body: rest.slice(close.index + close[0].length).replace(/^\r?\n/, ''),
  };
}
