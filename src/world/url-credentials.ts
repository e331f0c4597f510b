/**
 * Webhook URLs with credentials (`https://user:pass@host/`): refused since, but a store written
 * before may hold some, and an attempt's error may have quoted one. They are shown with the
 * password as `***`, never as written.
 */

/** Whether `text` is a URL that carries a user name or a password. */
export function hasCredentials (text: string): boolean {
  const url = URL.canParse(text) ? new URL(text) : undefined
  return url !== undefined && (url.username !== '' || url.password !== '')
}

/** The URL with its password as `***` (the user name kept, to tell which it was); other text as it is. */
export function redactedUrl (text: string): string {
  if (!hasCredentials(text)) return text
  const url = new URL(text)
  if (url.password !== '') url.password = '***'
  return url.href
}

/** `text` (an attempt's error) with every spelling of `url`'s password in it as `***`. */
export function withoutPassword (text: string, url: string): string {
  if (!URL.canParse(url)) return text
  const { password } = new URL(url)
  if (password === '') return text
  let decoded = password
  try {
    decoded = decodeURIComponent(password)
  } catch {
    // Not percent-encoding after all: the raw spelling is the one to take out.
  }
  return [password, decoded].reduce((out, spelling) => out.split(spelling).join('***'), text)
}
