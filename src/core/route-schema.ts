/** The parts of a route's schema the transports act on; the rest documents it. */
export interface RouteSchema {
  params?: unknown
  querystring?: unknown
  body?: unknown
  /** Status → the schema its JSON body is serialised with. */
  response: Record<number, unknown>
  [documentation: string]: unknown
}
