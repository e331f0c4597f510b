import { base64, sha256Bytes } from '../world/digest.js'
import type { DebitCard, PinLink } from '../domain/model.js'

// The set-PIN page a card provider would host. Self-contained (no external assets) so it works
// offline and inside a webview; the inline style and script are allowed by hash, nothing else runs.

const STYLE = `
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
  body { margin: 0; display: grid; place-items: center; min-height: 100vh; background: Canvas; color: CanvasText; }
  main { width: min(26rem, 100% - 2rem); padding: 1.5rem; border: 1px solid GrayText; border-radius: 0.75rem; }
  h1 { font-size: 1.4rem; margin: 0 0 0.5rem; }
  .field { margin: 1rem 0; }
  label { display: block; font-weight: 600; }
  input { font: inherit; font-size: 1.5rem; letter-spacing: 0.5em; width: 6em; padding: 0.25rem 0.5rem; }
  input:focus, button:focus { outline: 3px solid Highlight; outline-offset: 2px; }
  button { font: inherit; padding: 0.5rem 1.25rem; border-radius: 0.4rem; cursor: pointer; }
  .hint { font-size: 0.9rem; margin: 0.25rem 0 0; }
  .error { color: #b00020; font-weight: 600; }
  .success { color: #1b5e20; font-weight: 600; }
  @media (prefers-color-scheme: dark) { .error { color: #ff8a80; } .success { color: #a5d6a7; } }
`

// Posts back to the page's own URL, so `?session=` travels with it.
const SCRIPT = `
(() => {
  const form = document.getElementById('pin-form')
  const message = document.getElementById('message')
  const button = form.querySelector('button')
  const show = (text, kind) => { message.textContent = text; message.className = kind }
  const invalid = (input, text) => { input.setAttribute('aria-invalid', 'true'); show(text, 'error'); input.focus() }
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const pin = form.elements.pin
    const confirm = form.elements.confirm
    pin.removeAttribute('aria-invalid')
    confirm.removeAttribute('aria-invalid')
    if (!/^[0-9]{4}$/.test(pin.value)) return invalid(pin, 'Enter exactly 4 digits.')
    if (pin.value !== confirm.value) return invalid(confirm, 'The two PINs do not match.')
    button.disabled = true
    show('Setting your PIN…', '')
    try {
      const res = await fetch(window.location.pathname + window.location.search, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ pin: pin.value })
      })
      const body = await res.json().catch(() => ({}))
      if (res.ok) {
        for (const input of form.querySelectorAll('input')) input.disabled = true
        show('Your PIN is set. You can close this page.', 'success')
        return
      }
      if (res.status === 422 || res.status === 400) {
        button.disabled = false
        return invalid(pin, body.detail || 'This PIN cannot be used; choose another.')
      }
      show((body.detail || 'The PIN could not be set (HTTP ' + res.status + ').') + ' Request a new link from the app.', 'error')
    } catch {
      button.disabled = false
      show('The server could not be reached. Check the connection and try again.', 'error')
    }
  })
})()
`

const sha256 = (text: string): string => `'sha256-${base64(sha256Bytes(text))}'`

/** Headers for every page: no caching (single-use tokens), no referrer leaking the token, only our own inline code. */
export const PIN_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'content-security-policy': `default-src 'none'; style-src ${sha256(STYLE)}; script-src ${sha256(SCRIPT)}; connect-src 'self'; form-action 'self'; base-uri 'none'`
}

function escapeHtml (text: string): string {
  return text.replace(/[&<>"']/g, c => `&#${c.charCodeAt(0)};`)
}

function layout (title: string, body: string, withScript: boolean): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
${withScript ? `<script>${SCRIPT}</script>\n` : ''}</body>
</html>
`
}

export function pinFormPage (link: PinLink, card: DebitCard): string {
  const cardName = `${card.network} ${card.form === 'VIRTUAL' ? 'virtual' : 'physical'} card ending ${card.last4}`
  return layout('Set your card PIN', `<h1>Set your card PIN</h1>
<p>For your ${escapeHtml(cardName)}.</p>
<p class="hint">This link works once and expires at <time datetime="${escapeHtml(link.expiresAt)}">${escapeHtml(link.expiresAt.slice(11, 16))} UTC</time>.</p>
<form id="pin-form" method="post" novalidate>
<div class="field">
<label for="pin">New PIN</label>
<input id="pin" name="pin" type="password" inputmode="numeric" autocomplete="off" minlength="4" maxlength="4" pattern="[0-9]{4}" required aria-describedby="pin-hint">
<p id="pin-hint" class="hint">4 digits. Repeated digits (1111) and runs (1234, 4321) are not accepted.</p>
</div>
<div class="field">
<label for="confirm">Confirm PIN</label>
<input id="confirm" name="confirm" type="password" inputmode="numeric" autocomplete="off" minlength="4" maxlength="4" pattern="[0-9]{4}" required>
</div>
<button type="submit">Set PIN</button>
<p id="message" role="status" aria-live="polite"></p>
</form>
<noscript><p class="error">This page needs JavaScript to send your PIN.</p></noscript>`, true)
}

const HEADINGS: Record<string, string> = {
  pin_link_not_found: 'This link is not valid',
  pin_link_expired: 'This link has expired',
  pin_link_used: 'This link has already been used',
  card_closed: 'This card is closed',
  customer_not_writable: 'The PIN cannot be changed right now'
}

/** The page for a link that cannot be used, with what to do next. */
export function pinErrorPage (code: string, detail: string): string {
  const heading = HEADINGS[code] ?? 'The PIN cannot be set'
  return layout(heading, `<h1>${escapeHtml(heading)}</h1>
<p role="alert" class="error">${escapeHtml(detail)}</p>
<p>Go back to the app and ask for a new link to set your PIN.</p>`, false)
}
