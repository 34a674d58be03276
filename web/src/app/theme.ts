/**
 * The app follows the host's light or dark theme: `data-theme` on the root element keys app.css's
 * colours, and `color-scheme` gives form controls and scrollbars the same. Without a theme from the
 * host, the system's preference decides.
 */
export type Theme = "light" | "dark";

export function applyTheme(hostTheme: string | undefined): Theme {
  const theme: Theme =
    hostTheme === "dark" || hostTheme === "light"
      ? hostTheme
      : window.matchMedia?.("(prefers-color-scheme: dark)").matches
        ? "dark"
        : "light";
  document.documentElement.dataset.theme = theme;
  document.documentElement.style.colorScheme = theme;
  return theme;
}
