/** A setting that cannot be used; the message names it the way the user wrote it. */
export class ConfigError extends Error {
  constructor (message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'ConfigError'
  }
}
