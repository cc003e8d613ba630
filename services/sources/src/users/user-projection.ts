/**
 * What the sources service knows of a user, from the `users` topic: enough to find the user from
 * a marketplace URL (by the sha256 of its token: the token itself never leaves the users service),
 * to compute offsets, to show the marketplace after a change, and to stop syncing for users who
 * may no longer write.
 */
export interface ProjectedUser {
  _id: string;
  uid: string;
  organization_id: string;
  customer_id: string;
  status: 'active' | 'suspended' | 'deleted';
  timezone: string | null;
  /** Absent in projections written before the marketplace was answered here: read as `profile`. */
  timezone_origin?: 'profile' | 'user_defined';
  /** Absent in projections written before the marketplace was answered here: read as null. */
  country_code?: string | null;
  marketplace_token_sha256: string | null;
  /** sha256 of the mobile token (the phone app's connect); absent in projections written before. */
  mobile_token_sha256?: string | null;
  updated_at: string;
}
