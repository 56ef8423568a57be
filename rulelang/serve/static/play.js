// The Play tab: start a game with a kind per seat, then play it hot seat. Only the shown seat's view
// is on screen; when another human seat must act, a "pass to seat K" screen comes first and the
// previous seat's view is taken off the page, so one seat's secret pick is never shown to another.

import { get, post, sleep } from "./api.js";
import { byTestId, el, renderView, replaceChildren, showError, showLines } from "./dom.js";
import { readSeatKinds, renderSeatSelects, setPlayerBounds } from "./seats.js";

const BOT_POLL_MS = 250;

const play = { gameInfo: null, game: null, seats: [], shownSeat: null, pendingSeat: null, polling: false, onGameOver: null };

/** Wire the setup form to the game's bounds and agents; onGameOver(id or null) follows the game's log. */
export function startPlay(game, onGameOver) {
  play.onGameOver = onGameOver;
  play.gameInfo = game;
  const players = byTestId("play-players");
  players.value = "";
  players.addEventListener("change", () => refreshPlaySeats(play.gameInfo));
  refreshPlaySeats(game);
  byTestId("play-setup").addEventListener("submit", (event) => {
    event.preventDefault();
    startGame();
  });
  byTestId("pass-ready").addEventListener("click", () => showSeat(play.pendingSeat));
}

/** The player count or the game (mods toggled) changed: keep the bounds and the seat selects in step. */
export function refreshPlaySeats(game) {
  play.gameInfo = game;
  renderSeatSelects(byTestId("play-seats"), setPlayerBounds(byTestId("play-players"), game.players),
    ["human", ...game.agents], { prefix: "seat-kind", initial: () => "human" });
}

async function startGame() {
  const seats = readSeatKinds(byTestId("play-seats"));
  const seed = Number.parseInt(byTestId("play-seed").value, 10) || 0;
  try {
    const answer = await post("api/play", { players: seats.length, seed, seats });
    play.game = answer.game;
    byTestId("panel-play").dataset.game = answer.game;
    play.seats = seats;
    play.shownSeat = null;
    renderSeatSwitcher();
    play.onGameOver(null);                           // its log is shown once it is over (it names secret picks)
    const firstHuman = humanSeats()[0];
    await showSeat(firstHuman || 1);
  } catch (error) {
    showError(error);
  }
}

/** Count the screens shown (body[data-play-updates]): a test waits for the next one after a click. */
function countUpdate() {
  document.body.dataset.playUpdates = String(Number(document.body.dataset.playUpdates || 0) + 1);
}

function humanSeats() {
  return play.seats.flatMap((kind, i) => (kind === "human" ? [i + 1] : []));
}

function renderSeatSwitcher() {
  const buttons = humanSeats().map((seat) =>
    el("button", { type: "button", "data-testid": `seat-switch-${seat}`, onclick: () => passTo(seat) }, `Seat ${seat}`));
  replaceChildren(byTestId("seat-switcher"), buttons.length > 1 ? ["Hot seat: ", buttons] : []);
}

/** Fetch and show one seat's view (after its player confirmed they hold the device). */
async function showSeat(seat) {
  play.shownSeat = seat;
  play.pendingSeat = null;
  byTestId("pass-screen").hidden = true;
  try {
    handleAnswer(await get(`api/play/${encodeURIComponent(play.game)}?seat=${seat}`));
  } catch (error) {
    showError(error);
  }
}

/** Decide what comes on screen after an answer: this seat's table, a pass screen, or a wait for bots. */
function handleAnswer(answer) {
  countUpdate();
  if (answer.over) {
    play.onGameOver(play.game);
    return renderTable(answer);
  }
  const humansToAct = answer.to_act.filter((seat) => play.seats[seat - 1] === "human");
  if (humansToAct.includes(play.shownSeat)) return renderTable(answer);
  if (humansToAct.length > 0) return passTo(humansToAct[0]);
  renderTable(answer);
  pollWhileBotsMove();
}

/** Hide the current seat's table entirely and ask for the device to go to seat K. */
function passTo(seat) {
  if (seat === play.shownSeat && byTestId("pass-screen").hidden) return;
  clearTable();
  play.pendingSeat = seat;
  byTestId("pass-text").textContent = `Pass the device to seat ${seat}.`;
  byTestId("pass-ready").textContent = `I am seat ${seat}: show my view`;
  byTestId("pass-screen").dataset.seat = String(seat);
  byTestId("pass-screen").hidden = false;
}

function clearTable() {
  byTestId("table-area").hidden = true;
  for (const id of ["view", "options", "play-log"]) replaceChildren(byTestId(id));
  byTestId("seat-heading").textContent = "";
  byTestId("waiting").textContent = "";
  byTestId("play-result").hidden = true;
}

function renderTable(answer) {
  byTestId("table-area").hidden = false;
  byTestId("table-area").dataset.seat = String(answer.seat);
  byTestId("seat-heading").textContent = `Seat ${answer.seat} of ${answer.players}`;
  replaceChildren(byTestId("view"), renderView(answer.view));
  const options = answer.options || [];
  replaceChildren(byTestId("options"),
    options.length && answer.prompt ? el("span", { class: "prompt", "data-testid": "prompt", text: answer.prompt }) : null,
    options.map(optionButton));
  showLines(byTestId("play-log"), answer.log);
  byTestId("waiting").textContent = waitingText(answer);
  renderResult(answer);
}

function optionButton(option) {
  return el("button", {
    type: "button", class: "option", "data-testid": "option", "data-index": option.index,
    onclick: () => choose(option.index),
  }, option.label);
}

function waitingText(answer) {
  if (answer.over || (answer.options || []).length > 0) return "";
  const seats = answer.to_act.map((seat) => `seat ${seat}`).join(", ");
  return seats ? `Waiting for ${seats}…` : "Waiting…";
}

function renderResult(answer) {
  const result = byTestId("play-result");
  result.hidden = !answer.over;
  result.textContent = answer.over ? `Game over: ${answer.result ?? "no result"}` : "";
}

async function choose(index) {
  for (const button of byTestId("options").querySelectorAll("button")) button.disabled = true;
  try {
    handleAnswer(await post(`api/play/${encodeURIComponent(play.game)}/choose`, { seat: play.shownSeat, index }));
  } catch (error) {
    showError(error);
    await showSeat(play.shownSeat);                  // a stale choice (409): show where the game is now
  }
}

/** The game waits on bots only: ask again shortly, until a human must act or the game ends. */
async function pollWhileBotsMove() {
  if (play.polling) return;
  play.polling = true;
  const game = play.game;
  try {
    await sleep(BOT_POLL_MS);
    if (game === play.game && play.pendingSeat === null) {
      const answer = await get(`api/play/${encodeURIComponent(game)}?seat=${play.shownSeat}`);
      play.polling = false;
      if (game === play.game) handleAnswer(answer);
    }
  } catch (error) {
    showError(error);
  } finally {
    play.polling = false;
  }
}
