/**
 * Where the pasted token lives: this tab's sessionStorage only (gone when the tab closes), never a
 * URL, a cookie or a log line.
 */

const TOKEN_KEY = "branchmind.viewer.token";

export function storedToken(): string | undefined {
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

export function storeToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token.trim());
}

export function forgetToken(): void {
  sessionStorage.removeItem(TOKEN_KEY);
}
