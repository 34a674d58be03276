/** Small formatting helpers shared by the views. */

export function time(value: string | number | undefined): string {
  if (value === undefined) return "";
  const date = new Date(value);
  return Number.isNaN(date.getTime())
    ? String(value)
    : date
        .toISOString()
        .replace("T", " ")
        .replace(/\.\d+Z$/, "Z");
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
