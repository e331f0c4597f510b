/**
 * ABA routing transit numbers: nine digits whose weighted sum with the weights
 * 3 7 1 3 7 1 3 7 1 is a multiple of 10 (021000021 and 011000015 are valid).
 */
const WEIGHTS = [3, 7, 1, 3, 7, 1, 3, 7, 1] as const

export function isValidRoutingNumber (value: string): boolean {
  return routingNumberProblem(value) === undefined
}

/** Why `value` is not a routing number, or undefined when it is one. */
export function routingNumberProblem (value: string): string | undefined {
  if (!/^\d{9}$/.test(value)) return 'must be exactly 9 digits'
  let sum = 0
  for (let i = 0; i < WEIGHTS.length; i++) sum += Number(value[i]) * (WEIGHTS[i] as number)
  return sum % 10 === 0 ? undefined : 'fails the ABA checksum (weights 3-7-1); check the digits'
}
