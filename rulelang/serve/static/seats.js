// One <select> per seat (Play: human or an agent; Balance: an agent), rebuilt when the player count changes.

import { el, replaceChildren } from "./dom.js";

/** Fill host with one select per seat; keep the kinds already chosen where the seat still exists. */
export function renderSeatSelects(host, count, kinds, { prefix, initial }) {
  const previous = readSeatKinds(host);
  const selects = [];
  for (let seat = 1; seat <= count; seat++) {
    const chosen = previous[seat - 1] || initial(seat);
    const select = el("select", { name: `seat${seat}`, "data-testid": `${prefix}-${seat}` },
      kinds.map((kind) => el("option", { value: kind, selected: kind === chosen }, kind)));
    selects.push(el("label", { class: "seat" }, `Seat ${seat} `, select));
  }
  replaceChildren(host, selects);
}

/** The kinds chosen, seat 1 first. */
export function readSeatKinds(host) {
  return [...host.querySelectorAll("select")].map((select) => select.value);
}

/** A player count kept inside the game's bounds (none known when the game does not load: 1 and up). */
export function boundedPlayers(input, players) {
  const min = players.min ?? 1;
  const max = players.max ?? Math.max(min, 8);
  const value = Number.parseInt(input.value, 10);
  const bounded = Math.min(Math.max(Number.isFinite(value) ? value : min, min), max);
  input.value = String(bounded);
  return bounded;
}

/** Put the game's player bounds on a count input (a new game or mods toggled); keep its value inside them. */
export function setPlayerBounds(input, players) {
  input.min = String(players.min ?? 1);
  if (players.max === null || players.max === undefined) input.removeAttribute("max");
  else input.max = String(players.max);
  if (input.value === "") input.value = String(players.min ?? 2);
  return boundedPlayers(input, players);
}
