// Vite's `import.meta.glob` in the one form the workers tests use (the raw text of source files, loaded
// eagerly): the project does not load vite/client's types, which would declare it with the rest of Vite.
interface ImportMeta {
  glob<T = unknown>(pattern: string, options: { query: "?raw"; import: "default"; eager: true }): Record<string, T>;
}
