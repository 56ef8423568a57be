// The Balance tab: run a simulation or a sweep as a server job, follow its progress (with Cancel),
// then chart what it found: win rates with intervals, game lengths, end conditions, card statistics.

import { del, get, post, sleep } from "./api.js";
import { horizontalBars, histogram, sweepChart } from "./charts.js";
import { byTestId, el, replaceChildren, showError } from "./dom.js";
import { boundedPlayers, readSeatKinds, renderSeatSelects, setPlayerBounds } from "./seats.js";

const JOB_POLL_MS = 200;

const balance = { game: null, job: null };

export function startBalance(game) {
  balance.game = game;
  const players = byTestId("sim-players");
  players.value = "";
  players.addEventListener("change", () => refreshBalanceSeats(balance.game));
  refreshBalanceSeats(game);
  byTestId("sim-form").addEventListener("submit", (event) => {
    event.preventDefault();
    runJob("api/simulate", commonSettings(), renderSimulation);
  });
  byTestId("sweep-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const target = byTestId("sweep-target").value.trim();
    runJob("api/sweep", { ...commonSettings(), vary: readVary(), ...(target ? { target } : {}) }, renderSweep);
  });
  byTestId("job-cancel").addEventListener("click", cancelJob);
}

/** One agent select per seat (the agents list changes when mods are toggled). */
export function refreshBalanceSeats(game) {
  balance.game = game;
  renderSeatSelects(byTestId("sim-agents"), setPlayerBounds(byTestId("sim-players"), game.players), game.agents,
    { prefix: "sim-agent", initial: () => game.agents[0] });
}

function commonSettings() {
  return {
    players: boundedPlayers(byTestId("sim-players"), balance.game.players),
    games: Number.parseInt(byTestId("sim-games").value, 10) || 1,
    agents: readSeatKinds(byTestId("sim-agents")),
    seed: Number.parseInt(byTestId("sim-seed").value, 10) || 0,
  };
}

/** One KEY=V1,V2,... or several separated by ";" (a grid of settings). */
function readVary() {
  const parts = byTestId("sweep-vary").value.split(";").map((part) => part.trim()).filter(Boolean);
  return parts.length === 1 ? parts[0] : parts;
}

/** Start a job, follow it to its end, then draw its result. */
async function runJob(path, body, render) {
  try {
    const { job } = await post(path, body);
    balance.job = job;
    byTestId("job").dataset.job = job;
    setRunning(true);
    const final = await followJob(job);
    if (final.state === "done") render(final.result);
  } catch (error) {
    showError(error);
  } finally {
    setRunning(false);
  }
}

async function followJob(job) {
  for (;;) {
    const status = await get(`api/jobs/${encodeURIComponent(job)}`);
    showProgress(status);
    if (status.state !== "running") {
      if (status.state === "failed") showError({ message: status.error || "the job failed" });
      return status;
    }
    await sleep(JOB_POLL_MS);
  }
}

function showProgress(status) {
  const progress = byTestId("job-progress");
  progress.max = Math.max(1, status.total || 1);
  progress.value = status.done || 0;
  const text = byTestId("job-status");
  text.textContent = `${status.state}: ${status.done ?? 0} of ${status.total ?? "?"} games`;
  text.dataset.state = status.state;
}

function setRunning(running) {
  byTestId("job").hidden = false;
  byTestId("job-cancel").disabled = !running;
  byTestId("sim-run").disabled = running;
  byTestId("sweep-run").disabled = running;
}

async function cancelJob() {
  if (balance.job === null) return;
  try {
    await del(`api/jobs/${encodeURIComponent(balance.job)}`);
  } catch (error) {
    showError(error);
  }
}

/** The simulate summary as charts (and its JSON kept whole for whoever wants the rest). */
function renderSimulation(result) {
  replaceChildren(byTestId("charts"),
    el("p", { class: "summary", "data-testid": "sim-summary",
      text: `${result.game}: ${result.completed} of ${result.games} games finished, ${result.players} players, seed ${result.seed}` }),
    horizontalBars("chart-win-rates", "Win rate (95% interval)", intervalItems(result.win_rate)),
    histogram("chart-lengths", `Game length (mean ${Number(result.turns?.mean ?? NaN).toFixed(2)} turns)`, result.turns?.histogram || [], "turns"),
    endConditionsChart(result),
    cardsChart(result.cards || {}),
    el("pre", { hidden: true, "data-testid": "job-result", text: JSON.stringify(result) }));
}

function intervalItems(rates) {
  return Object.entries(rates || {}).map(([label, r]) => ({
    label, value: r.rate ?? 0, low: r.low ?? 0, high: r.high ?? 0, wins: r.wins, of: r.of,
    text: `${percent(r.rate)} (${percent(r.low)}-${percent(r.high)}, ${r.wins}/${r.of})`,
  }));
}

function endConditionsChart(result) {
  const total = Math.max(1, result.completed || 0);
  const items = Object.entries(result.end_conditions || {})
    .sort((a, b) => b[1] - a[1])
    .map(([label, games]) => ({ label, value: games / total, games, text: `${games} (${percent(games / total)})` }));
  return horizontalBars("chart-end-conditions", "How games ended", items);
}

function cardsChart(cards) {
  const entries = Object.entries(cards);
  if (entries.length === 0) {
    return el("figure", { class: "chart", "data-testid": "chart-cards", "data-chart": "[]" },
      el("figcaption", { text: "Cards" }), el("p", { text: "This game has no card statistics." }));
  }
  const items = entries.map(([id, card]) => ({
    label: card.name || id, id, value: card.win_rate?.rate ?? 0, low: card.win_rate?.low ?? 0,
    high: card.win_rate?.high ?? 0, played: card.played, games: card.games,
    difference: card.difference?.value ?? null,
    text: `${percent(card.win_rate?.rate)} · played ${card.played} · Δ ${signedPercent(card.difference?.value)}`,
  }));
  items.sort((a, b) => b.value - a.value);
  return horizontalBars("chart-cards", "Win rate of the seats that played each card (95% interval)", items);
}

function percent(value) {
  return typeof value === "number" ? `${(100 * value).toFixed(1)}%` : "–";
}

function signedPercent(value) {
  return typeof value === "number" ? `${value >= 0 ? "+" : ""}${(100 * value).toFixed(1)}%` : "–";
}

/** The sweep answer: one point per setting with the target band behind them, and a table. */
function renderSweep(result) {
  const points = (result.settings || []).map((setting) => ({
    label: Object.entries(setting.values).map(([key, value]) => `${lastPart(key)}=${value}`).join(" "),
    values: setting.values, value: setting.metric?.value ?? 0, low: setting.metric?.low ?? 0,
    high: setting.metric?.high ?? 0, meets: Boolean(setting.meets),
  }));
  const band = result.target ? { low: result.target.low, high: result.target.high } : null;
  replaceChildren(byTestId("charts"),
    el("p", { class: "summary", "data-testid": "sweep-summary",
      text: `${result.game}: ${result.metric ?? "metric"} over ${points.length} setting(s), ${result.games} games each` }),
    sweepChart("chart-sweep", `${result.metric ?? "metric"} per setting${band ? " (band: target)" : ""}`, points, band),
    el("pre", { hidden: true, "data-testid": "job-result", text: JSON.stringify(result) }));
}

function lastPart(key) {
  const parts = String(key).split(".");
  return parts.length > 2 ? parts.slice(-2).join(".") : key;
}
