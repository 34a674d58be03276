/**
 * The value every command returns and every RPC call carries: success with a JSON payload, or a
 * typed error. Results, not exceptions, cross the Worker/Durable Object boundary (an RPC exception
 * loses its code).
 */
import type { AppError } from "./errors";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface Warning {
  code: string;
  message: string;
  recovery: string;
}

export type Result<T = JsonObject> = { ok: true; value: T } | { ok: false; error: AppError };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function err(error: AppError): Result<never> {
  return { ok: false, error };
}
