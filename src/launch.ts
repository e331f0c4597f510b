#!/usr/bin/env node
import { fileURLToPath } from 'node:url'
import { runBundle } from './cli/compile-cache.js'

/** The bundle's hash, put here by scripts/bundle.ts: this file runs only as dist/baas-mock.js, the package's bin. */
declare const BAAS_MOCK_BUNDLE_HASH: string

runBundle(fileURLToPath(new URL('./baas-mock.cjs', import.meta.url)), BAAS_MOCK_BUNDLE_HASH)
