/** Time source; tests pass one they can move forward. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * A clock on a fixed calendar day (Asia/Shanghai): it starts at noon of `day` and runs forward with `base`, so a test
 * run (well under twelve hours) stays on that day while timers and cooldowns still see time pass. Test hook only
 * (config DATA_TODAY).
 */
export function fixedDayClock(day: string, base: Clock = systemClock): Clock {
  const startedAt = base.now().getTime();
  const noon = Date.parse(`${day}T12:00:00+08:00`);
  return { now: () => new Date(noon + (base.now().getTime() - startedAt)) };
}
