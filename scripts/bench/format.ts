/**
 * How every benchmark report writes its numbers and columns, in one place below the reports (the
 * suites' reports and the object-time table all import it).
 */

export const fmtInt = (value: number): string => value.toLocaleString("en-US");
export const fmtMs = (value: number): string => value.toFixed(2);
export const pad = (text: string, width: number): string => text.padStart(width);
export const padEnd = (text: string, width: number): string => text.padEnd(width);
