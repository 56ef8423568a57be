// Building the page with DOM calls only. Every text that may come from a spec goes in through
// textContent or createTextNode, never through innerHTML, so a name like "<img onerror=...>" stays text.

const SVG_NS = "http://www.w3.org/2000/svg";

/** An element with attributes and children; strings among the children become text nodes. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttributes(node, attrs);
  appendChildren(node, children);
  return node;
}

/** An SVG element (charts), built the same way as el(). */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttributes(node, attrs);
  appendChildren(node, children);
  return node;
}

function setAttributes(node, attrs) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "text") node.textContent = String(value);
    else if (name.startsWith("on") && typeof value === "function") node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
}

function appendChildren(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** The one element with this data-testid (the tests use the same names). */
export function byTestId(id, root = document) {
  return root.querySelector(`[data-testid="${id}"]`);
}

/** Empty a node, then put the given children in. */
export function replaceChildren(node, ...children) {
  node.replaceChildren();
  appendChildren(node, children);
}

/** A view (a list of {title, rows: [[label, value], ...]}) as one small table per section. */
export function renderView(sections) {
  return (sections || []).map((section) =>
    el("section", { class: "view-section" },
      el("h4", { text: section.title }),
      el("table", {},
        el("tbody", {}, (section.rows || []).map(([label, value]) =>
          el("tr", {}, el("th", { text: label }), el("td", { text: formatValue(value) })))))));
}

function formatValue(value) {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map(formatValue).join(", ");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** Show the error bar with the server's message and hint. */
export function showError(error) {
  const bar = byTestId("error");
  byTestId("error-message").textContent = error.message || String(error);
  byTestId("error-hint").textContent = error.hint || "";
  bar.hidden = false;
}

export function hideError() {
  byTestId("error").hidden = true;
}

/** Fill a list with one item per line and scroll to its end, where the newest line is. */
export function showLines(list, lines) {
  replaceChildren(list, (lines || []).map((line) => el("li", { text: line })));
  list.scrollTop = list.scrollHeight;
}
