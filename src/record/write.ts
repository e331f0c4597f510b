import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { stringify } from 'yaml'
import { toJsonl, type Exchange } from './exchange.js'
import type { Learned } from './learn.js'
import { redactExchange } from './redact.js'

/** The files of a recorded folder, besides the entity files. */
export const RECORDED_FILES = {
  dialect: 'dialect.yaml',
  /** `extends: none`: the recorded world is a world of its own, not layered over the bundled one. */
  folder: 'fixtures.yaml',
  exchanges: 'exchanges.jsonl',
  report: 'REPORT.md',
  /** The routes moved from the mock's defaults when recording: serve and verify the folder with them (`--env-file DIR/routes.env`). */
  routes: 'routes.env'
} as const

const yaml = (value: unknown): string => stringify(value, { lineWidth: 0, aliasDuplicateObjects: false })

/** Writes a fixtures folder that `--fixtures DIR` serves alone. */
export function writeRecording (dir: string, learned: Learned, exchanges: readonly Exchange[], unmatched: readonly string[], target: string, routes: Readonly<Record<string, string>> = {}): void {
  mkdirSync(dir, { recursive: true })
  const header = `# Recorded by baas-mock record from ${target}; edit freely (see REPORT.md)\n`
  writeFileSync(join(dir, RECORDED_FILES.folder), `${header}extends: none\n`)
  writeFileSync(join(dir, RECORDED_FILES.dialect), header + yaml(learned.dialect))
  for (const [kind, entities] of Object.entries(learned.fixtures)) {
    if ((entities as unknown[]).length > 0) writeFileSync(join(dir, `${kind}.yaml`), header + yaml(entities))
  }
  writeFileSync(join(dir, RECORDED_FILES.exchanges), toJsonl(exchanges.map(redactExchange)))
  const moved = Object.entries(routes)
  if (moved.length > 0) writeFileSync(join(dir, RECORDED_FILES.routes), `${header}${moved.map(([name, route]) => `${name}=${route}`).join('\n')}\n`)
  writeFileSync(join(dir, RECORDED_FILES.report), reportText(learned, exchanges, unmatched, target, moved.length > 0 ? join(dir, RECORDED_FILES.routes) : undefined))
}

export function reportText (learned: Learned, exchanges: readonly Exchange[], unmatched: readonly string[], target: string, routesFile?: string): string {
  const list = (items: readonly string[]): string => items.length === 0 ? '- nothing\n' : items.map(i => `- ${i}\n`).join('')
  const byOperation = new Map<string, number>()
  for (const e of exchanges) byOperation.set(e.operation, (byOperation.get(e.operation) ?? 0) + 1)
  return [
    '# Recording report\n\n',
    `Recorded from ${target}: ${exchanges.length} exchange(s) of known operations (${[...byOperation].map(([op, n]) => `${op} ×${n}`).join(', ') || 'none'}). `,
    'The files are the mock\'s own formats (docs/reference/dialect.md, docs/reference/fixtures.md): edit them as hand-written ones.\n\n',
    '## Learned from evidence\n', list(learned.notes.learned), '\n',
    '## Guessed (check these)\n', list(learned.notes.guessed), '\n',
    '## Needs a hand edit\n', list(learned.notes.edit), '\n',
    '## Proxied, not kept (no configured route matched)\n', list(unmatched), '\n',
    ...routesFile === undefined ? [] : ['## Routes\n', `Recorded on routes moved from the mock's defaults, kept in ${routesFile}: serve and verify the folder with them, \`--env-file ${routesFile}\`.\n\n`],
    'Secrets are redacted in exchanges.jsonl (Authorization, cookies, tokens, codes, card numbers); tokens select their persona through salted hashes (customers.yaml `tokenHashes`).\n'
  ].join('')
}
