import { capReached, DomainError } from './errors.js'
import type { DomainContext, VerificationSettings } from './context.js'
import { customerChanged, getWritableCustomer } from './customer.js'
import { maskPhone } from './masking.js'
import type { Customer, PhoneVerification, VerificationChannel } from './model.js'
import type { DueProcessor, TimelineEvent } from './timeline.js'

/**
 * Phone verification codes, as Twilio Verify behaves: one pending verification per customer and
 * number, the same code re-sent while it is valid, a fixed number of checks, per-number send limits.
 */

/** An expired verification lingers this long so a late check answers 410 rather than 404. */
export const EXPIRED_GRACE_SECONDS = 24 * 60 * 60

export interface SendCodeInput {
  /** E.164; defaults to the customer's phone on file. */
  phone?: string | undefined
  channel?: VerificationChannel | undefined
}

export interface SendCodeResult {
  verificationId: string
  /** Masked. */
  to: string
  channel: VerificationChannel
  expiresAt: string
  resendAvailableAt: string
  attemptsRemaining: number
}

export interface VerifyCodeInput {
  code: string
  phone?: string | undefined
}

export interface VerifyCodeResult {
  status: 'APPROVED'
  /** Masked. */
  phone: string
  verifiedAt: string
}

/** Sends (or re-sends) a code to the phone; the message lands in the outbox with the code in `data.code`. */
export function sendVerificationCode (ctx: DomainContext, customerId: string, input: SendCodeInput = {}): SendCodeResult {
  const customer = getWritableCustomer(ctx, customerId)
  const settings = ctx.settings.verification
  const phone = input.phone ?? customer.phone
  const channel = input.channel ?? 'SMS'
  const now = ctx.clock.now()
  const nowMs = now.getTime()

  const sends = recentSends(ctx, phone, nowMs)
  enforceSendLimits(settings, phone, sends, nowMs)
  for (const number of roomForNumber(ctx, phone, nowMs)) forgetNumber(ctx, number)

  const pending = findVerification(ctx, customerId, phone)
  let verification: PhoneVerification
  if (pending !== undefined && isUsable(pending, settings, nowMs)) {
    // Twilio behaviour: a resend within the validity repeats the code; only the channel may change.
    verification = { ...pending, channel, lastSentAt: now.toISOString() }
  } else {
    if (pending !== undefined) ctx.state.phoneVerifications.delete(pending.id)
    verification = {
      id: ctx.ids.id('ver'),
      customerId,
      phone,
      channel,
      code: newCode(ctx, settings),
      createdAt: now.toISOString(),
      expiresAt: new Date(nowMs + settings.ttlSeconds * 1000).toISOString(),
      lastSentAt: now.toISOString(),
      checksMade: 0
    }
  }
  ctx.state.phoneVerifications.set(verification.id, verification)
  recordSend(ctx, phone, sends, nowMs)

  const validForSeconds = Math.max(0, Math.floor((Date.parse(verification.expiresAt) - nowMs) / 1000))
  ctx.outbox.deliver({
    channel: channel === 'CALL' ? 'call' : 'sms',
    to: phone,
    body: `Your baas-mock verification code is ${verification.code}. It expires in ${describeDuration(validForSeconds)}.`,
    kind: 'sendPhoneVerificationCode',
    data: { code: verification.code, verificationId: verification.id },
    customerId
  })

  const result = describeVerification(verification, settings)
  ctx.events.emit({ type: 'phone_verification.code_sent', at: verification.lastSentAt, entityId: verification.id, data: result, detail: `Code sent by ${channel} to ${result.to}` })
  return result
}

/** A verification as send-code answers it: masked, with what is left of it. */
function describeVerification (verification: PhoneVerification, settings: VerificationSettings): SendCodeResult {
  return {
    verificationId: verification.id,
    to: maskPhone(verification.phone),
    channel: verification.channel,
    expiresAt: verification.expiresAt,
    resendAvailableAt: new Date(Date.parse(verification.lastSentAt) + settings.resendCooldownSeconds * 1000).toISOString(),
    attemptsRemaining: Math.max(0, settings.maxChecks - verification.checksMade)
  }
}

/** Checks a code. Approval removes the verification and marks the phone on file verified. */
export function verifyCode (ctx: DomainContext, customerId: string, input: VerifyCodeInput): VerifyCodeResult {
  const customer = getWritableCustomer(ctx, customerId)
  const settings = ctx.settings.verification
  const phone = input.phone ?? customer.phone
  const now = ctx.clock.now()
  const nowMs = now.getTime()

  const verification = findVerification(ctx, customerId, phone)
  if (verification === undefined) {
    throw new DomainError('verification_not_found', `No pending verification for ${maskPhone(phone)}; send a code first.`)
  }
  if (nowMs >= Date.parse(verification.expiresAt)) {
    ctx.state.phoneVerifications.delete(verification.id)
    throw new DomainError('verification_expired', `The code sent to ${maskPhone(phone)} expired at ${verification.expiresAt}; send a new one.`, {
      extensions: { expiresAt: verification.expiresAt }
    })
  }
  if (verification.checksMade >= settings.maxChecks) {
    ctx.state.phoneVerifications.delete(verification.id)
    throw new DomainError('max_attempts', `All ${settings.maxChecks} checks of this code were used; send a new code.`, {
      retryAfterSeconds: secondsUntilNextSend(ctx, settings, phone, nowMs)
    })
  }
  // Never put the code itself in a message: problems end up in logs and journals.
  if (input.code !== verification.code) {
    const checksMade = verification.checksMade + 1
    ctx.state.phoneVerifications.set(verification.id, { ...verification, checksMade })
    const attemptsRemaining = Math.max(0, settings.maxChecks - checksMade)
    throw new DomainError('invalid_code', `The code does not match the one sent to ${maskPhone(phone)}; ${attemptsRemaining} attempt${attemptsRemaining === 1 ? '' : 's'} left.`, {
      errors: [{ pointer: '/code', message: 'does not match the code sent' }],
      extensions: { attemptsRemaining }
    })
  }

  ctx.state.phoneVerifications.delete(verification.id)
  const result: VerifyCodeResult = { status: 'APPROVED', phone: maskPhone(phone), verifiedAt: now.toISOString() }
  ctx.events.emit({ type: 'phone_verification.approved', at: result.verifiedAt, entityId: verification.id, data: result, detail: `${result.phone} verified` })
  if (phone === customer.phone && !customer.phoneVerified) {
    const verified: Customer = { ...customer, phoneVerified: true, updatedAt: now.toISOString() }
    ctx.state.customers.set(customer.id, verified)
    customerChanged(ctx, customer, verified, 'Phone verified')
  }
  return result
}

/** The pending verification of this customer for this number, if any (expired ones included). */
export function findVerification (ctx: DomainContext, customerId: string, phone: string): PhoneVerification | undefined {
  for (const verification of ctx.state.phoneVerifications.values()) {
    if (verification.customerId === customerId && verification.phone === phone) return verification
  }
  return undefined
}

/**
 * The numbers to forget so that `phone` fits in `maxVerifications`: none when the world tracks it
 * already (a code or sends to it) or has room. Otherwise the oldest numbers with no code that can
 * still be checked (approved, expired, checks used up: only their send counts are left); when too
 * few are, the send is refused (429 too_many_verifications, Retry-After until the first pending
 * code expires on the session clock) and nothing changes. Bounded by the cap: a send walks it.
 */
function roomForNumber (ctx: DomainContext, phone: string, nowMs: number): string[] {
  const settings = ctx.settings.verification
  const max = settings.maxVerifications
  const tracked = new Set<string>()
  const pending = new Set<string>()
  let firstExpiryMs = Number.POSITIVE_INFINITY
  for (const verification of ctx.state.phoneVerifications.values()) {
    tracked.add(verification.phone)
    if (!isUsable(verification, settings, nowMs)) continue
    pending.add(verification.phone)
    firstExpiryMs = Math.min(firstExpiryMs, Date.parse(verification.expiresAt))
  }
  for (const number of ctx.state.phoneSendLog.keys()) tracked.add(number)
  if (tracked.has(phone) || tracked.size < max) return []
  const over = tracked.size + 1 - max
  const idle = [...tracked].filter(number => !pending.has(number))
  if (idle.length < over) {
    const retryAfterSeconds = Math.max(1, Math.ceil((firstExpiryMs - nowMs) / 1000))
    throw capReached('too_many_verifications',
      `This session has codes pending for ${pending.size} phone numbers, the most it keeps (maxVerifications, --max-verifications ${max}); approve one or let it expire (in ${retryAfterSeconds} s) before sending to another number.`,
      'maxVerifications', max, retryAfterSeconds)
  }
  return idle.slice(0, over)
}

/** Forgets a number's verifications and send counts: it is new again to the send limits. */
function forgetNumber (ctx: DomainContext, phone: string): void {
  ctx.state.phoneSendLog.delete(phone)
  for (const [id, verification] of ctx.state.phoneVerifications) if (verification.phone === phone) ctx.state.phoneVerifications.delete(id)
}

/** Unexpired and with checks left: a resend repeats its code instead of starting over. */
function isUsable (verification: PhoneVerification, settings: VerificationSettings, nowMs: number): boolean {
  return nowMs < Date.parse(verification.expiresAt) && verification.checksMade < settings.maxChecks
}

function newCode (ctx: DomainContext, settings: VerificationSettings): string {
  const fixed = settings.fixedCode
  return fixed !== undefined && fixed !== '' ? fixed : ctx.ids.digits(settings.codeLength)
}

/** How long a send stays relevant: for the window limit and for the cool-down. */
function sendLogRetentionMs (settings: VerificationSettings): number {
  return Math.max(settings.sendWindowSeconds, settings.resendCooldownSeconds) * 1000
}

/** The number's sends that still count, oldest first. */
function recentSends (ctx: DomainContext, phone: string, nowMs: number): number[] {
  const retentionMs = sendLogRetentionMs(ctx.settings.verification)
  return (ctx.state.phoneSendLog.get(phone) ?? []).filter(at => nowMs - at < retentionMs)
}

function recordSend (ctx: DomainContext, phone: string, sends: number[], nowMs: number): void {
  // Delete then set: the log stays ordered by each number's latest send, so pruning can stop early.
  ctx.state.phoneSendLog.delete(phone)
  ctx.state.phoneSendLog.set(phone, [...sends, nowMs])
}

function enforceSendLimits (settings: VerificationSettings, phone: string, sends: number[], nowMs: number): void {
  const windowMs = settings.sendWindowSeconds * 1000
  const cooldownMs = settings.resendCooldownSeconds * 1000
  const last = sends.at(-1)
  const cooldownLeftMs = last === undefined ? 0 : Math.max(0, last + cooldownMs - nowMs)
  const inWindow = sends.filter(at => nowMs - at < windowMs)
  if (inWindow.length >= settings.maxSendsPerWindow) {
    // A slot frees up when the oldest send that keeps the window full leaves it.
    const freesAt = (inWindow[inWindow.length - settings.maxSendsPerWindow] ?? nowMs) + windowMs
    const retryAfterSeconds = Math.ceil(Math.max(freesAt - nowMs, cooldownLeftMs) / 1000)
    throw new DomainError('too_many_sends', `At most ${settings.maxSendsPerWindow} codes can be sent to ${maskPhone(phone)} every ${describeDuration(settings.sendWindowSeconds)}; try again in ${retryAfterSeconds} s.`, {
      retryAfterSeconds,
      extensions: { retryAfterSeconds }
    })
  }
  if (cooldownLeftMs > 0) {
    const retryAfterSeconds = Math.ceil(cooldownLeftMs / 1000)
    throw new DomainError('resend_too_soon', `A code was sent to ${maskPhone(phone)} less than ${settings.resendCooldownSeconds} s ago; try again in ${retryAfterSeconds} s.`, {
      retryAfterSeconds,
      extensions: { retryAfterSeconds }
    })
  }
}

/** After max attempts the client's next step is a new send: tell it when that is possible. */
function secondsUntilNextSend (ctx: DomainContext, settings: VerificationSettings, phone: string, nowMs: number): number {
  const last = recentSends(ctx, phone, nowMs).at(-1)
  if (last === undefined) return 0
  return Math.ceil(Math.max(0, last + settings.resendCooldownSeconds * 1000 - nowMs) / 1000)
}

function describeDuration (seconds: number): string {
  if (seconds >= 60) {
    const minutes = Math.floor(seconds / 60)
    return `${minutes} minute${minutes === 1 ? '' : 's'}`
  }
  return `${seconds} second${seconds === 1 ? '' : 's'}`
}

/**
 * Reports each verification's expiry once, at its expiresAt, and purges it after the grace period.
 * Runs before every request, so it must be cheap: verifications are stored in creation order with
 * one validity, hence in expiry order too, and the scan stops at the first one still valid.
 */
const expireVerifications: DueProcessor = (ctx, until) => {
  const untilMs = until.ms
  const events: TimelineEvent[] = []
  for (const verification of ctx.state.phoneVerifications.values()) {
    const expiresMs = Date.parse(verification.expiresAt)
    if (expiresMs > untilMs) break
    if (verification.expiredAt === undefined) {
      ctx.state.phoneVerifications.set(verification.id, { ...verification, expiredAt: verification.expiresAt })
      events.push({
        type: 'phone_verification.expired',
        at: verification.expiresAt,
        entityId: verification.id,
        data: describeVerification(verification, ctx.settings.verification),
        detail: `The verification code sent to ${maskPhone(verification.phone)} expired unused.`
      })
    }
    if (expiresMs + EXPIRED_GRACE_SECONDS * 1000 <= untilMs) ctx.state.phoneVerifications.delete(verification.id)
  }
  return events
}

/** Forgets sends older than any limit looks back, so a weeks-long demo keeps bounded memory. */
const pruneSendLog: DueProcessor = (ctx, until) => {
  const untilMs = until.ms
  const retentionMs = sendLogRetentionMs(ctx.settings.verification)
  // Numbers are ordered by their latest send (see recordSend): stop at the first one still relevant.
  for (const [phone, sends] of ctx.state.phoneSendLog) {
    const last = sends.at(-1)
    if (last !== undefined && untilMs - last < retentionMs) break
    ctx.state.phoneSendLog.delete(phone)
  }
  return []
}

export const verificationDueProcessors: DueProcessor[] = [expireVerifications, pruneSendLog]
