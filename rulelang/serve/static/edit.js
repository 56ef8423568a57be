// The Edit tab: the game's files, a YAML editor (CodeMirror 5), diagnostics under their lines
// as the user types, and Save.

import { get, post, put } from "./api.js";
import { byTestId, el, replaceChildren, showError } from "./dom.js";

const CHECK_DELAY_MS = 300;
const EDITABLE = /\.(ya?ml|md)$/i;

let editor = null;
let currentPath = null;
let savedText = "";
let checkTimer = null;
let checkSequence = 0;
let marks = [];
/** Unsaved texts of the files left for another one (path -> {text, saved}): switching files loses nothing. */
const unsaved = new Map();

/** Make the (empty) editor: done while the game's description is still on its way. */
export function createEditor(onSaved) {
  editor = makeEditor(byTestId("editor"), () => saveFile(onSaved));
  editor.on("change", (_cm, change) => {
    if (change.origin !== "setValue") scheduleCheck();
    updateSaveButton();
  });
  byTestId("save").addEventListener("click", () => saveFile(onSaved));
}

/** The Edit tab is shown again: CodeMirror measures itself anew (it cannot while hidden). */
export function refreshEditor() {
  if (editor) editor.refresh();
}

/** Fill the file list and open the game's main file first. */
export async function startEdit(game) {
  showFiles(game.files);
  const first = game.files.find((f) => f.kind === "game") || game.files.find((f) => EDITABLE.test(f.path));
  if (first) await openFile(first.path);
}

function makeEditor(host, save) {
  return window.CodeMirror(host, {
    value: "",
    mode: "yaml",
    lineNumbers: true,
    indentUnit: 2,
    tabSize: 2,
    extraKeys: { Tab: (cm) => cm.replaceSelection("  "), "Ctrl-S": save, "Cmd-S": save },
  });
}

/** The file list, each file a button; files the server cannot edit are listed but disabled. */
export function showFiles(files) {
  const items = files.map((file) =>
    el("li", {},
      el("button", {
        type: "button", class: `file kind-${file.kind}`, "data-testid": "file-item", "data-path": file.path,
        disabled: !EDITABLE.test(file.path), onclick: () => openFile(file.path),
      }, file.path),
      el("span", { class: "kind", text: file.kind })));
  replaceChildren(byTestId("file-list"), items);
  markCurrentFile();
}

/** Load one file into the editor (its unsaved text if it was left with one); its check starts at once. */
export async function openFile(path) {
  try {
    const kept = unsaved.get(path);
    const { text, saved } = kept || await fetchFile(path);
    keepUnsavedText();
    unsaved.delete(path);
    currentPath = path;
    savedText = saved;
    checkNow(text);                                  // the server checks while the editor lays the text out
    editor.setValue(text);
    editor.clearHistory();
    byTestId("editor-path").textContent = path;
    byTestId("save-status").textContent = kept ? "unsaved changes" : "";
    markCurrentFile();
    updateSaveButton();
  } catch (error) {
    showError(error);
  }
}

async function fetchFile(path) {
  const answer = await get(`api/file?path=${encodeURIComponent(path)}`);
  return { text: answer.text, saved: answer.text };
}

/** Keep the current file's text if it differs from the saved one, before another file takes the editor. */
function keepUnsavedText() {
  if (currentPath === null) return;
  const text = editor.getValue();
  if (text !== savedText) unsaved.set(currentPath, { text, saved: savedText });
}

/** Whether any file has text not saved yet (the page asks before it is closed). */
export function hasUnsavedText() {
  return unsaved.size > 0 || (currentPath !== null && editor.getValue() !== savedText);
}

function markCurrentFile() {
  for (const button of document.querySelectorAll('[data-testid="file-item"]')) {
    button.classList.toggle("current", button.dataset.path === currentPath);
    button.classList.toggle("unsaved", unsaved.has(button.dataset.path));
  }
}

function updateSaveButton() {
  const dirty = currentPath !== null && editor.getValue() !== savedText;
  byTestId("save").disabled = !dirty;
  byTestId("editor").dataset.dirty = dirty ? "1" : "0";
}

function scheduleCheck() {
  clearTimeout(checkTimer);
  checkSequence++;                                   // an answer still on its way is for an older text
  markCheckPending();
  checkTimer = setTimeout(() => checkNow(), CHECK_DELAY_MS);
}

function markCheckPending() {
  byTestId("check-status").textContent = "…";
  byTestId("check-status").dataset.state = "pending";
}

/** Check the unsaved buffer now (mods toggled, file opened, or the typing pause ended). */
export async function checkNow(text = editor.getValue()) {
  if (currentPath === null) return;
  clearTimeout(checkTimer);
  markCheckPending();
  const sequence = ++checkSequence;
  const started = performance.now();
  try {
    const answer = await post("api/check", { path: currentPath, text });
    if (sequence !== checkSequence) return;          // an older answer: the buffer changed since
    showDiagnostics(answer.diagnostics);
    reportCheck(answer, performance.now() - started);
    if (!document.body.dataset.checkedMs) document.body.dataset.checkedMs = performance.now().toFixed(1);
  } catch (error) {
    if (sequence === checkSequence) showError(error);
  }
}

function reportCheck(answer, roundTripMs) {
  const status = byTestId("check-status");
  const errors = answer.diagnostics.filter((d) => d.severity === "error").length;
  const warnings = answer.diagnostics.length - errors;
  status.textContent = `${errors} error(s), ${warnings} warning(s) · checked in ${Math.round(roundTripMs)} ms`;
  status.dataset.state = "done";
  status.dataset.ms = roundTripMs.toFixed(1);
  status.dataset.serverMs = String(answer.ms);
  status.dataset.sequence = String(checkSequence);
}

/** Diagnostics of this file under their lines (message and hint) with their range marked; all in the list. */
function showDiagnostics(diagnostics) {
  clearMarks();
  editor.operation(() => {
    for (const diagnostic of diagnostics) {
      if (diagnostic.path === currentPath) markDiagnostic(diagnostic);
    }
  });
  replaceChildren(byTestId("problems"), diagnostics.map(problemItem));
}

function markDiagnostic(d) {
  const lastLine = editor.lineCount() - 1;
  const line = clamp(d.line - 1, 0, lastLine);
  const from = { line, ch: Math.max(0, d.column - 1) };
  const endLine = clamp((d.end_line || d.line) - 1, line, lastLine);
  let to = { line: endLine, ch: Math.max(0, (d.end_column || d.column + 1) - 1) };
  if (to.line === from.line && to.ch <= from.ch) to = { line, ch: from.ch + 1 };
  marks.push(editor.markText(from, to, { className: `diag-range diag-${d.severity}` }));
  marks.push(editor.addLineWidget(line, diagnosticWidget(d), { coverGutter: false, noHScroll: true }));
}

function diagnosticWidget(d) {
  return el("div", { class: `diag diag-${d.severity}`, "data-testid": "diagnostic", "data-line": d.line },
    el("span", { class: "diag-place", text: `${d.line}:${d.column} ${d.severity}` }),
    el("span", { class: "diag-message", text: d.message }),
    d.hint ? el("span", { class: "diag-hint", text: d.hint }) : null);
}

function problemItem(d) {
  return el("li", { class: `diag-${d.severity}`, "data-testid": "problem" },
    el("button", { type: "button", class: "link", onclick: () => goTo(d) }, `${d.path}:${d.line}:${d.column}`),
    ` ${d.severity}: `, d.message, d.hint ? el("span", { class: "diag-hint", text: ` (${d.hint})` }) : null);
}

async function goTo(d) {
  if (d.path !== currentPath) await openFile(d.path);
  editor.setCursor({ line: d.line - 1, ch: d.column - 1 });
  editor.focus();
}

function clearMarks() {
  for (const mark of marks) mark.clear();
  marks = [];
}

async function saveFile(onSaved) {
  if (currentPath === null || byTestId("save").disabled) return;
  const text = editor.getValue();
  try {
    const answer = await put("api/file", { path: currentPath, text });
    savedText = text;
    updateSaveButton();
    byTestId("save-status").textContent = "saved";
    showDiagnostics(answer.diagnostics || []);
    if (onSaved) onSaved(currentPath);
  } catch (error) {
    byTestId("save-status").textContent = "not saved";
    showError(error);
  }
}

function clamp(value, low, high) {
  return Math.min(Math.max(value, low), high);
}
