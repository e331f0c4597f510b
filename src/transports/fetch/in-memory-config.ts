import type { Config } from '../../config/config.js'
import { ConfigError } from '../../config/config-error.js'

/** `config`, when its sessions can live in memory: MSW's handlers are made at once, before a store could be opened. */
export function inMemoryConfig (config: Config): Config {
  if (config.stateDir !== undefined || config.store !== undefined) {
    const option = config.store === undefined ? 'stateDir' : 'store'
    throw new ConfigError(`${option} needs a store opened first: give createHandlers { mock: await createMock({ ${option} }) } instead`)
  }
  return config
}
