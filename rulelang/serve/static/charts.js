// Charts as inline SVG made with DOM calls. Each chart keeps the numbers it draws in its
// data-chart attribute (JSON), so a test or a curious user can read exactly what is plotted.

import { el, svg } from "./dom.js";

const WIDTH = 760;
const LABEL_WIDTH = 230;
const ROW_HEIGHT = 24;
const LABEL_CHARS = 34;

/** A titled figure holding one SVG, with its data kept in data-chart. */
function figure(testid, title, data, drawing) {
  return el("figure", { class: "chart", "data-testid": testid, "data-chart": JSON.stringify(data) },
    el("figcaption", { text: title }), drawing);
}

function shortLabel(label) {
  const text = String(label);
  return text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1)}…` : text;
}

function percent(value) {
  return `${(100 * value).toFixed(1)}%`;
}

/**
 * Horizontal bars on a 0..max scale, one row per item {label, value, low?, high?, text?};
 * an interval (low..high) is drawn as a whisker over the bar.
 */
export function horizontalBars(testid, title, items, { max = 1, format = percent } = {}) {
  const plotWidth = WIDTH - LABEL_WIDTH - 230;
  const scale = (v) => LABEL_WIDTH + (plotWidth * Math.max(0, Math.min(v, max))) / (max || 1);
  const height = items.length * ROW_HEIGHT + 24;
  const rows = items.map((item, i) => {
    const y = i * ROW_HEIGHT + 4;
    const middle = y + ROW_HEIGHT / 2 - 2;
    return svg("g", { class: "row" },
      svg("title", { text: `${item.label}: ${item.text ?? format(item.value)}` }),
      svg("text", { x: LABEL_WIDTH - 8, y: middle + 4, "text-anchor": "end", class: "label", text: shortLabel(item.label) }),
      svg("rect", { x: LABEL_WIDTH, y: y + 3, width: Math.max(0, scale(item.value) - LABEL_WIDTH), height: ROW_HEIGHT - 10, class: "bar" }),
      item.low !== undefined ? whisker(scale(item.low), scale(item.high), middle) : null,
      svg("text", { x: scale(Math.max(item.value, item.high ?? 0)) + 6, y: middle + 4, class: "value", text: item.text ?? format(item.value) }));
  });
  const axis = svg("line", { x1: LABEL_WIDTH, y1: 0, x2: LABEL_WIDTH, y2: height - 20, class: "axis" });
  const drawing = svg("svg", { viewBox: `0 0 ${WIDTH} ${height}`, width: WIDTH, height, role: "img" }, axis, rows);
  return figure(testid, title, items, drawing);
}

function whisker(x1, x2, y) {
  return svg("g", { class: "interval" },
    svg("line", { x1, y1: y, x2, y2: y }),
    svg("line", { x1, y1: y - 5, x2: x1, y2: y + 5 }),
    svg("line", { x1: x2, y1: y - 5, x2, y2: y + 5 }));
}

/** A histogram of [value, count] pairs (game lengths), one bar per value. */
export function histogram(testid, title, bins, unit) {
  const height = 200;
  const plotHeight = height - 40;
  const left = 40;
  const plotWidth = WIDTH - left - 10;
  const most = Math.max(1, ...bins.map(([, count]) => count));
  const barWidth = bins.length ? plotWidth / bins.length : plotWidth;
  const bars = bins.map(([value, count], i) => {
    const barHeight = (plotHeight * count) / most;
    const x = left + i * barWidth;
    return svg("g", { class: "row" },
      svg("title", { text: `${value} ${unit}: ${count} game(s)` }),
      svg("rect", { x: x + 1, y: 10 + plotHeight - barHeight, width: Math.max(1, barWidth - 2), height: barHeight, class: "bar" }),
      showTick(i, bins.length) ? svg("text", { x: x + barWidth / 2, y: height - 14, "text-anchor": "middle", class: "tick", text: String(value) }) : null);
  });
  const axes = [
    svg("line", { x1: left, y1: 10 + plotHeight, x2: WIDTH - 10, y2: 10 + plotHeight, class: "axis" }),
    svg("text", { x: left - 6, y: 16, "text-anchor": "end", class: "tick", text: String(most) }),
    svg("text", { x: WIDTH / 2, y: height - 1, "text-anchor": "middle", class: "tick", text: unit }),
  ];
  const drawing = svg("svg", { viewBox: `0 0 ${WIDTH} ${height}`, width: WIDTH, height, role: "img" }, axes, bars);
  return figure(testid, title, bins, drawing);
}

function showTick(i, count) {
  const every = Math.max(1, Math.ceil(count / 14));
  return i % every === 0 || i === count - 1;
}

/**
 * A sweep: the metric per setting with its interval, on a 0..1 scale, and the target band shaded
 * behind it; points inside the band are marked "meets".
 */
export function sweepChart(testid, title, points, band) {
  const height = 240;
  const top = 10;
  const plotHeight = height - 60;
  const left = 50;
  const plotWidth = WIDTH - left - 20;
  const low = 0;
  const high = Math.max(1, ...points.map((p) => p.high ?? p.value));
  const y = (v) => top + plotHeight - (plotHeight * (v - low)) / (high - low);
  const step = points.length ? plotWidth / points.length : plotWidth;
  const x = (i) => left + step * (i + 0.5);
  const parts = [];
  if (band) {
    parts.push(svg("rect", { x: left, y: y(band.high), width: plotWidth, height: Math.max(1, y(band.low) - y(band.high)), class: "band", "data-testid": "sweep-band" }));
  }
  parts.push(svg("line", { x1: left, y1: top + plotHeight, x2: left + plotWidth, y2: top + plotHeight, class: "axis" }));
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(svg("text", { x: left - 6, y: y(tick) + 4, "text-anchor": "end", class: "tick", text: percent(tick) }));
  }
  points.forEach((p, i) => {
    parts.push(svg("g", { class: p.meets ? "point meets" : "point" },
      svg("title", { text: `${p.label}: ${percent(p.value)} (${percent(p.low)}-${percent(p.high)})` }),
      svg("line", { x1: x(i), y1: y(p.low), x2: x(i), y2: y(p.high), class: "interval-line" }),
      svg("circle", { cx: x(i), cy: y(p.value), r: 5 }),
      svg("text", { x: x(i), y: height - 30, "text-anchor": "middle", class: "tick", text: shortLabel(p.label) })));
  });
  const drawing = svg("svg", { viewBox: `0 0 ${WIDTH} ${height}`, width: WIDTH, height, role: "img" }, parts);
  return figure(testid, title, { points, band }, drawing);
}
