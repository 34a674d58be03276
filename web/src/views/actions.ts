/**
 * Loads started by a click after the view was drawn ("more", "older", opening a node): errors show
 * next to the control instead of replacing the view, and a refused token sends the page back through
 * the session check, which then shows why and hides the data.
 */
import { ApiError } from "../api";

/** Redraws the current route: the session is checked again first. */
export function redraw(): void {
  window.dispatchEvent(new HashChangeEvent("hashchange"));
}

export async function guarded(status: HTMLElement, load: () => Promise<void>): Promise<void> {
  try {
    status.textContent = "";
    await load();
  } catch (error) {
    if (error instanceof ApiError && error.isAuth) {
      redraw();
      return;
    }
    if (error instanceof DOMException && error.name === "AbortError") return;
    status.textContent = error instanceof ApiError ? `${error.code}: ${error.message}` : String(error);
    status.classList.add("error-text");
  }
}

export function onClick(button: HTMLElement, status: HTMLElement, load: () => Promise<void>): void {
  button.addEventListener("click", () => void guarded(status, load));
}
