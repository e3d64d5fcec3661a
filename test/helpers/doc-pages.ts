// The project's Markdown pages (README.md and docs/) and their fenced code blocks, for the
// tests that run the examples and check the docs site.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const DOCS = join(ROOT, 'docs');

/** Folders of docs/ that hold no page of ours: tooling, build output, generated API pages. */
const NOT_PAGES = new Set(['node_modules', '.vitepress', 'raw']);

function markdownUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return NOT_PAGES.has(name) || relative(DOCS, path) === join('reference', 'api') ? [] : markdownUnder(path);
      return name.endsWith('.md') ? [path] : [];
    });
}

/** docs/ pages as paths relative to docs/, e.g. "guide/client.md". */
export function docPages(): string[] {
  return markdownUnder(DOCS).map((path) => relative(DOCS, path));
}

export interface CodeBlock {
  /** Repository path of the page, e.g. "docs/guide/client.md". */
  page: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  /** The words after the language: "run" marks a block the examples test runs. */
  flags: string[];
  code: string;
}

/** Every fenced code block of a page (``` fences, not nested). */
export function codeBlocks(page: string): CodeBlock[] {
  const lines = readFileSync(join(ROOT, page), 'utf8').split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\S*)\s*(.*)$/.exec(lines[i]);
    if (!open) continue;
    const indent = open[1].length;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !/^\s*```\s*$/.test(lines[j])) body.push(lines[j++].slice(indent));
    blocks.push({ page, line: i + 1, lang: open[2], flags: open[3].split(/\s+/).filter(Boolean), code: body.join('\n') + '\n' });
    i = j;
  }
  return blocks;
}

/** The blocks marked to run (```ts run, ```js run) in README.md and every docs/ page. */
export function runnableBlocks(): CodeBlock[] {
  const pages = ['README.md', ...docPages().map((p) => `docs/${p}`)];
  return pages.flatMap(codeBlocks).filter((b) => (b.lang === 'ts' || b.lang === 'js') && b.flags.includes('run'));
}
