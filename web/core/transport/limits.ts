/** Seed 000 §6 / seed 003: model HTTP request and response bodies (success or error) are at most 48 MiB. */
export const MAX_BODY_BYTES = 48 * 1024 * 1024;
