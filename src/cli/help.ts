import { defaultConfig } from '../config/config.js'
import { acceptedValues, SETTINGS, shownDefault } from '../config/settings.js'

export function helpText (version: string): string {
  const defaults = defaultConfig()
  const flags = SETTINGS.map(s => `  --${s.flag} ${s.type === 'boolean' ? '<true|false>' : '<v>'}`)
  const width = Math.max(38, ...flags.map(f => f.length + 2))
  const lines = SETTINGS.map((s, i) => {
    // A boolean's values are in its flag column already.
    const values = s.type === 'boolean' ? [] : acceptedValues(s)
    const choices = values.length === 0 ? '' : ` (${values.join(', ')})`
    return `${(flags[i] ?? '').padEnd(width)}${s.description}${choices}  [${s.env}; default: ${shownDefault(s, defaults)}]`
  })
  return `baas-mock ${version} — a stateful mock of a banking-as-a-service API

Usage:
  baas-mock [options]                 serve the mock (default http://127.0.0.1:4010)
  baas-mock env [--base-url URL] [--prefix VITE_] [--format dotenv|json]
                                      print the configuration names as a .env for your app
  baas-mock check-fixtures [--fixtures DIR]
                                      validate a fixtures folder and exit
  baas-mock state-reset --state-dir DIR
                                      move the stored sessions' files aside (nothing deleted) and exit:
                                      the next start begins afresh, and the one after keeps its data
  baas-mock record --target URL --out DIR [--port N] [--env-file F] [--route N=V]
                                      proxy to your backend and learn its dialect, world and personas into DIR
                                      (written on Ctrl-C, SIGTERM or POST /__mock/record/stop)
  baas-mock verify --target URL --fixtures DIR [--env-file F] [--corpus FILE] [--junit FILE] [--read-only] [--header "Name: value"]
                                      replay the recorded exchanges against your backend and the mock and compare
                                      their shapes: exit 0 agree, 1 drift (each difference printed), 2 cannot run
  baas-mock --help | --version

Options (flag > environment variable > --env-file (MOCK_ names) > --config file > default):
  --config <file>                     YAML or JSON file with the settings below (camelCase keys) and routes:
  --env-file <file>                   a .env (your frontend's own): its configuration names move routes, its MOCK_ names set settings;
                                      repeat it to read several in order, merged as Vite merges them (a later file wins)
  --mode <mode> [--env-dir <dir>]     read the app's .env, .env.local, .env.<mode>, .env.<mode>.local as Vite's loadEnv does
  --route NAME=VALUE                  move one operation, e.g. --route "API_BAAS_CUSTOMER=/v2/customers"
  --state-reset                       with --state-dir: start afresh, moving the stored sessions' files aside (a flag only, no variable;
                                      in a container's command, every restart would reset again: use the state-reset command)
${lines.join('\n')}

Every operation's route can be moved by its configuration name (API_BAAS_CUSTOMER, ...):
a path or full URL, optionally with a method ("DELETE /x/$TRANSFER_ID"); parameters as
$CARD_ID, {cardId} or :cardId, an operation's one parameter under any name (:id). Docs: /docs. Contract: /openapi.json. Control plane: /__mock.
`
}
