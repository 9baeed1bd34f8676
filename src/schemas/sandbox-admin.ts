import { z } from 'zod';

/** The kinds of fault the sandbox can inject into the service's operations. */
export const faultKinds = ['500', '503', '429', 'drop', 'drop-after-commit'] as const;
export type FaultKind = (typeof faultKinds)[number];

const rate = z.number().min(0, { error: 'must be from 0 to 1' }).max(1, { error: 'must be from 0 to 1' });

/** Fault injection settings: latency, a rate per fault kind, and the seed that makes them reproducible. */
export const faultSettingsSchema = z
  .strictObject({
    latencyMs: z.number().int().min(0).max(600_000).optional(),
    faults: z.partialRecord(z.enum(faultKinds), rate).optional(),
    seed: z.number().int().optional(),
  })
  .check((ctx) => {
    const total = Object.values(ctx.value.faults ?? {}).reduce((sum, value) => sum + (value ?? 0), 0);
    if (total > 1) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value.faults,
        path: ['faults'],
        message: 'rates must add up to at most 1',
      });
    }
  });
export type FaultSettings = z.output<typeof faultSettingsSchema>;

/** A duration such as `30d`, `12h`, `90m`, `45s` or `2w`. */
export const durationSchema = z
  .string()
  .regex(/^\d+[smhdw]$/, { error: 'must be a duration such as 30d, 12h, 90m, 45s or 2w' });

/** `POST /__sandbox/clock`: move the sandbox's clock forward, or set it. */
export const clockChangeSchema = z.union(
  [z.strictObject({ advance: durationSchema }), z.strictObject({ now: z.iso.datetime({ offset: true }) })],
  { error: 'must be {"advance":"30d"} or {"now":"<ISO date-time>"}' },
);
export type ClockChange = z.output<typeof clockChangeSchema>;

/** `POST /__sandbox/tokens`: issue a token that expires after `ttlSeconds` of sandbox time. */
export const tokenRequestSchema = z.strictObject({
  ttlSeconds: z.number().int().min(0).optional(),
});

/** `POST /__sandbox/reset`: start over, with the demo invoices or empty. */
export const resetRequestSchema = z.strictObject({
  demo: z.boolean().optional(),
});

/** Milliseconds in a duration such as `30d`. */
export function durationToMs(duration: string): number {
  const unitMs = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
  const unit = duration.slice(-1) as keyof typeof unitMs;
  return Number(duration.slice(0, -1)) * unitMs[unit];
}
