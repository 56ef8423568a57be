// The Log tab: open the game just played or a pasted log, see whether replay verified it, and step
// through it with back/forward and a slider: the event, the narration so far and the state after it.

import { get, post } from "./api.js";
import { byTestId, renderView, replaceChildren, showError, showLines } from "./dom.js";

const viewer = { log: null, events: 0, step: 0, sequence: 0 };
let playedGame = null;

export function startLog() {
  byTestId("log-open-played").addEventListener("click", openPlayedGame);
  byTestId("log-open-pasted").addEventListener("click", () => openLog({ text: byTestId("log-paste").value }));
  byTestId("log-path-form").addEventListener("submit", (event) => {
    event.preventDefault();
    openLog({ path: byTestId("log-path").value.trim() });
  });
  byTestId("log-back").addEventListener("click", () => goToStep(viewer.step - 1));
  byTestId("log-forward").addEventListener("click", () => goToStep(viewer.step + 1));
  byTestId("log-slider").addEventListener("input", (event) => goToStep(Number(event.target.value)));
}

/** Remember the game the Play tab finished (null while one is under way), so its log can be opened here. */
export function setPlayedGame(game) {
  playedGame = game;
  byTestId("log-open-played").disabled = game === null;
}

async function openPlayedGame() {
  try {
    const answer = await get(`api/play/${encodeURIComponent(playedGame)}/log`);
    byTestId("log-paste").value = answer.log;
    await openLog({ text: answer.log });
  } catch (error) {
    showError(error);
  }
}

/** Send the log to the server (which replays it to verify) and show its last event. */
async function openLog(source) {
  try {
    const answer = await post("api/log", source);
    viewer.log = answer.log;
    viewer.events = answer.events;
    showVerified(answer);
    const slider = byTestId("log-slider");
    slider.min = "0";
    slider.max = String(answer.events);
    byTestId("log-viewer").hidden = false;
    await goToStep(answer.events);
  } catch (error) {
    showError(error);
  }
}

function showVerified(answer) {
  const badge = byTestId("log-verified");
  badge.textContent = answer.verified ? "verified" : "not verified";
  badge.dataset.verified = answer.verified ? "1" : "0";
  badge.className = answer.verified ? "badge ok" : "badge bad";
  const why = byTestId("log-error");
  why.textContent = answer.error || "";
  why.hidden = !answer.error;
}

/** Show the log at event n (0: before the first event), clamped to the log. */
async function goToStep(n) {
  if (viewer.log === null) return;
  const step = Math.min(Math.max(n, 0), viewer.events);
  const sequence = ++viewer.sequence;
  viewer.step = step;
  byTestId("log-slider").value = String(step);
  try {
    const answer = await get(`api/log/${encodeURIComponent(viewer.log)}/step/${step}`);
    if (sequence !== viewer.sequence) return;        // the slider moved on since
    renderStep(answer);
  } catch (error) {
    showError(error);
  }
}

function renderStep(answer) {
  byTestId("log-position").textContent = `event ${answer.n} of ${answer.events}`;
  byTestId("log-position").dataset.n = String(answer.n);
  byTestId("log-event").textContent = answer.event;
  showLines(byTestId("log-narration"), answer.narration);
  replaceChildren(byTestId("log-state"), renderView(answer.state));
  byTestId("log-back").disabled = answer.n <= 0;
  byTestId("log-forward").disabled = answer.n >= answer.events;
}
