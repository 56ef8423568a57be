// The page of `rulelang serve`: loads the game, wires the tabs (Edit, Play, Log, Balance, Rules)
// and the mods toggles, then sets body[data-ready] so tests (and the first-paint figure) know it is up.

import { get, post } from "./api.js";
import { refreshBalanceSeats, startBalance } from "./balance.js";
import { byTestId, el, hideError, replaceChildren, showError } from "./dom.js";
import { checkNow, createEditor, hasUnsavedText, refreshEditor, showFiles, startEdit } from "./edit.js";
import { setPlayedGame, startLog } from "./logview.js";
import { refreshPlaySeats, startPlay } from "./play.js";

let rulebookLoaded = false;             // reset when the game changes (mods, a save)

async function boot() {
  const gameRequest = get("api/game");
  byTestId("error-close").addEventListener("click", hideError);
  wireTabs();
  createEditor(reloadGame);
  window.addEventListener("beforeunload", (event) => {
    if (hasUnsavedText()) event.preventDefault();    // the browser asks whether to leave unsaved text
  });
  try {
    const game = await gameRequest;
    showGame(game);
    await startEdit(game);
    startPlay(game, setPlayedGame);
    startLog();
    startBalance(game);
  } catch (error) {
    showError(error);
  }
  markReady();
}

/** The page is painted and usable (its first file on screen; that file's diagnostics may still be coming):
 * record how long it took since navigation started (body[data-checked-ms] marks the first check's end). */
function markReady() {
  document.body.dataset.readyMs = performance.now().toFixed(1);
  document.body.dataset.ready = "1";
}

function wireTabs() {
  for (const button of document.querySelectorAll("[data-tab]")) {
    button.addEventListener("click", () => showTab(button.dataset.tab));
  }
  showTab("edit");
}

function showTab(name) {
  for (const button of document.querySelectorAll("[data-tab]")) {
    button.setAttribute("aria-selected", String(button.dataset.tab === name));
  }
  for (const panel of document.querySelectorAll("[data-panel]")) {
    panel.hidden = panel.dataset.panel !== name;
  }
  if (name === "rules") loadRulebook();
  if (name === "edit") refreshEditor();
}

/** Title, folder and the mods toggles from an api/game answer. */
function showGame(game) {
  byTestId("game-title").textContent = game.title;
  byTestId("game-folder").textContent = game.folder;
  document.title = `${game.title} · rulelang`;
  renderMods(game.mods);
  if (game.error) showError({ message: game.error, hint: "fix it in the Edit tab; the other tabs need a game that loads" });
}

function renderMods(mods) {
  const toggles = mods.map((mod) =>
    el("label", { class: "mod" },
      el("input", { type: "checkbox", "data-testid": "mod-toggle", "data-path": mod.path, checked: mod.enabled, onchange: applyMods }),
      ` ${mod.name}`));
  replaceChildren(byTestId("mods"), el("legend", { text: "Mods" }), toggles.length ? toggles : el("span", { class: "none", text: "none" }));
}

/** Send the checked mods; the game, its agents and the current check follow. */
async function applyMods() {
  const enabled = [...document.querySelectorAll('[data-testid="mod-toggle"]')]
    .filter((box) => box.checked).map((box) => box.dataset.path);
  try {
    followGame(await post("api/mods", { enabled }));
    await checkNow();
  } catch (error) {
    showError(error);
  }
}

/** A file was saved: the game may have changed (title, player bounds, files, rulebook). */
async function reloadGame() {
  try {
    followGame(await get("api/game"));
  } catch (error) {
    showError(error);
  }
}

/** Bring every tab in step with a new api/game answer. */
function followGame(game) {
  hideError();
  showGame(game);
  showFiles(game.files);
  refreshPlaySeats(game);
  refreshBalanceSeats(game);
  rulebookLoaded = false;
}

/** The rulebook is our renderer's escaped HTML: the one place the page sets HTML. It is a whole document
 * with its own style, so it goes in a sandboxed frame (no scripts) and keeps its look to itself. */
async function loadRulebook() {
  if (rulebookLoaded) return;
  try {
    const answer = await get("api/rulebook");
    const frame = el("iframe", { sandbox: "allow-same-origin", title: "Rulebook", "data-testid": "rulebook-frame" });
    frame.addEventListener("load", () => fitFrame(frame));
    frame.srcdoc = answer.html;
    replaceChildren(byTestId("rulebook"), frame);
    rulebookLoaded = true;
  } catch (error) {
    showError(error);
  }
}

function fitFrame(frame) {
  frame.style.height = `${frame.contentDocument.documentElement.scrollHeight + 20}px`;
  byTestId("rulebook").dataset.loaded = "1";
}

boot();
