/**
 * A tiny DOM builder: elements with classes, attributes, test ids and listeners, children given as
 * nodes or text. Text always goes in as text nodes (never as HTML), so stored content cannot inject
 * markup into the page.
 */

export type Child = Node | string | number | null | undefined | false;

export interface Props {
  class?: string;
  /** `data-testid`, the handle end-to-end tests use. */
  testid?: string;
  title?: string;
  href?: string;
  attrs?: Record<string, string>;
  data?: Record<string, string>;
  on?: Partial<{ [K in keyof HTMLElementEventMap]: (event: HTMLElementEventMap[K]) => void }>;
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props.class) node.className = props.class;
  if (props.testid) node.dataset.testid = props.testid;
  if (props.title) node.title = props.title;
  if (props.href && node instanceof HTMLAnchorElement) node.href = props.href;
  for (const [name, value] of Object.entries(props.attrs ?? {})) node.setAttribute(name, value);
  for (const [name, value] of Object.entries(props.data ?? {})) node.dataset[name] = value;
  for (const [type, listener] of Object.entries(props.on ?? {})) node.addEventListener(type, listener as EventListener);
  append(node, ...children);
  return node;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(node: Element): void {
  node.replaceChildren();
}

/** A table with a header row; each row is a list of cells (text or nodes). */
export function table(headers: string[], rows: Child[][], props: Props = {}, rowProps?: (index: number) => Props): HTMLTableElement {
  return el(
    "table",
    props,
    el("thead", {}, el("tr", {}, ...headers.map((header) => el("th", {}, header)))),
    el("tbody", {}, ...rows.map((cells, index) => el("tr", rowProps?.(index) ?? {}, ...cells.map((cell) => el("td", {}, cell))))),
  );
}

/** A labelled `<select>` whose change calls `onChange` with the chosen value. */
export function select(
  label: string,
  options: { value: string; label?: string }[],
  value: string,
  onChange: (value: string) => void,
  testid?: string,
) {
  const box = el("select", { ...(testid ? { testid } : {}), on: { change: () => onChange(box.value) } });
  for (const option of options) box.append(el("option", { attrs: { value: option.value } }, option.label ?? option.value));
  box.value = value;
  return el("label", { class: "field" }, `${label} `, box);
}

export function badge(text: string, kind = ""): HTMLSpanElement {
  return el("span", { class: `badge ${kind}`.trim() }, text);
}
