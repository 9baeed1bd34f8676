import { durationToMs, type ClockChange } from '../schemas/sandbox-admin.js';
import { validationError } from './http.js';
import type { Counters, StateDraft } from './store.js';

// Sandbox time is real time plus an offset kept in the state, so every process sharing a state file agrees on it
// and moving the clock survives a restart.

/** The latest instant a JavaScript Date can hold. */
const maxDateMs = 8.64e15;

/** The sandbox's current time. */
export function sandboxNow(counters: Pick<Counters, 'clockOffsetMs'>): Date {
  return new Date(Date.now() + counters.clockOffsetMs);
}

/**
 * Moves the clock forward by a duration, or sets it to an instant (which may be in the past). A move past the
 * last date a Date can hold is refused, as it would leave the state with a clock that cannot be read.
 */
export function changeClock(state: StateDraft, change: ClockChange): Date {
  const { clockOffsetMs } = state.counters();
  const offset =
    'advance' in change
      ? clockOffsetMs + durationToMs(change.advance, sandboxNow({ clockOffsetMs }))
      : Date.parse(change.now) - Date.now();
  if (!(Math.abs(Date.now() + offset) <= maxDateMs)) {
    const field = 'advance' in change ? 'advance' : 'now';
    throw validationError([{ path: field, message: 'moves the clock past the last date the sandbox can hold' }]);
  }
  state.setCounters({ clockOffsetMs: offset });
  return sandboxNow({ clockOffsetMs: offset });
}
