/**
 * What delivery asks about deleted and erased users (implemented by libs/runtime `GoneUsers`):
 * one customer's, loaded on first use and kept current; `fresh` also holds every deletion that
 * was on the log a moment before the call.
 */
export interface GoneUsersOf {
  has(userId: string): boolean;
}

export interface GoneUsersSource {
  forCustomer(customerId: string, fresh: boolean): Promise<GoneUsersOf>;
}
