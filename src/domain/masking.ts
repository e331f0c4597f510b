/** Sensitive data never leaves the mock in full. */

export function maskPhone (phone: string): string {
  // Keep the country prefix and the last two digits: +1******4567 is still recognisable to its owner.
  if (phone.length <= 4) return '*'.repeat(phone.length)
  return phone.slice(0, 2) + '*'.repeat(phone.length - 4) + phone.slice(-2)
}

export function maskEmail (email: string): string {
  const at = email.lastIndexOf('@')
  if (at <= 0) return '***'
  const local = email.slice(0, at)
  return `${local[0]}${'*'.repeat(Math.max(local.length - 1, 2))}${email.slice(at)}`
}

export function maskedPan (bin: string, last4: string): string {
  return `${bin}******${last4}`
}
