/** In-memory stores behind the bridges' functions, and a generated Apple Watch user: for tests without a phone. */
export { MemoryHealthKit } from './memory-healthkit';
export { MemoryHealthConnect } from './memory-health-connect';
export { appleWatchUser, type UserOptions } from './apple-watch-user';
export { hkQuantity, hkSleep, hkWorkout, ACTIVITY } from './healthkit-samples';
export { memoryStorage } from './memory-storage';
