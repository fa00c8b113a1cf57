import { ApiError } from '../../shared/api.js';

/** The operator-facing message of whatever a call threw. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
