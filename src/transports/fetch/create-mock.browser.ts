import type { MockOptions } from '../../config/options.js'
import type { Mock } from './mock.js'
import { loadMockModule } from './load-mock-module.js'

// create-mock.ts for the browser: the mock's code is loaded when the first mock is made (see load-mock-module.ts).

export async function createMock (options: MockOptions = {}): Promise<Mock> {
  return await (await loadMockModule()).createMock(options)
}
