// createMock as the package's entries export it; the browser build's is create-mock.browser.ts.
export { createMock } from './mock.js'
