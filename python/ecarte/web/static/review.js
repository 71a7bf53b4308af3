// The Review of a duel's deals: the server's `analyse` (docs/analysis.md) drawn for a
// person, as a chess site reviews a game. The timeline of decisions with each mistake
// marked, seat 0's value through the deal(s) as a small graph, and for a chosen decision
// its legal actions with their values and the best one named. The values, the best action
// and the mistake threshold are the engine's; the page only draws them.
import { actionText, el } from "./cards.js";
import { messages } from "./messages.js";

const SVG = "http://www.w3.org/2000/svg";
const WORLDS_KEY = "ecarte.review.worlds";
// The graph's frame: a deal is worth at most 2 points either way (a little room above
// for the deals' numbers).
const TOP = 2.4, BOTTOM = -2.3, HEIGHT = 120, STEP = 14, PAD = 8;

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

const signed = (x) => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(2)}`;
const isMistake = (d, threshold) => !d.forced && d.loss_info >= threshold;

// The value of the action taken for seat 0, under the mover's information: the mover's
// value, turned for seat 1's moves (what a point won by one seat is to the other).
function seat0Value(d) {
  const value = d.values_info[d.legal.indexOf(d.action)];
  return d.seat === 0 ? value : -value;
}

// The worlds of the next analysis: the person's last choice, else the server's default.
function chosenWorlds(hello) {
  const saved = Number(localStorage.getItem(WORLDS_KEY));
  const limit = hello.limits.worlds;
  return saved >= 1 && saved <= limit ? saved : hello.analysis.worlds;
}

// The Review panel of `target` (`{game}`: its finished deals, only deal number `deal`
// when given; or `{record}`: the record's text), seats named by `names`; `onChoose(decision)`
// is told of each decision the person chooses.
export function reviewPanel(server, hello, target, { names, deal = null, onClose, onChoose } = {}) {
  const { fail } = messages();
  const worlds = el("input", { type: "number", id: "review-worlds", min: 1, max: hello.limits.worlds, value: chosenWorlds(hello), size: 4 });
  const body = el("div", { id: "review-body" });
  const panel = el("div", { class: "panel review", id: "review" },
    el("div", { class: "row" }, el("h2", { class: "grow" }, deal === null ? "Review" : `Review of deal ${deal}`),
      onClose ? el("button", { id: "review-close", onclick: onClose }, "Close") : null),
    el("p", { class: "count" }, "Each move valued from what its player knew (the mean over sampled deals with its standard error), and with every card known (double-dummy, the play only). A mistake (?) lost at least the threshold."),
    el("div", { class: "row" }, el("label", {}, "Worlds", worlds),
      el("button", { id: "review-run", onclick: run }, "Analyse again")),
    body);
  run();
  return panel;

  async function run() {
    const n = Number(worlds.value);
    body.replaceChildren(el("p", { class: "count", id: "review-waiting" }, "Analysing…"));
    try {
      const result = await server.request("analyse", { ...target, ...(deal === null ? {} : { deal }), worlds: n });
      localStorage.setItem(WORLDS_KEY, String(n));
      draw(result.decisions, result);
    } catch (error) {
      body.replaceChildren();
      fail(error);
    }
  }

  function draw(decisions, result) {
    if (!decisions.length) {
      body.replaceChildren(el("p", { id: "review-empty" }, "No decision to review."));
      return;
    }
    const threshold = result.threshold;
    const detail = el("div", { id: "review-detail" });
    const chips = decisions.map((d, i) => el("button", {
      class: `decision seat${d.seat}${isMistake(d, threshold) ? " mistake" : ""}${d.forced ? " forced" : ""}`,
      "data-deal": d.deal, "data-ply": d.ply, title: `${names[d.seat]}: ${d.phase}`, onclick: () => choose(i, true),
    }, actionText(d.action), isMistake(d, threshold) ? el("b", {}, "?") : null));
    const graph = valueGraph(decisions, threshold, names, choose);
    // One line per deal (a match's timeline reads deal by deal).
    const deals = [...new Set(decisions.map((d) => d.deal))];
    const timeline = el("div", { id: "review-timeline" }, deals.map((n) => el("div", { class: "timeline" },
      el("span", { class: "count" }, `Deal ${n}`), chips.filter((_, i) => decisions[i].deal === n))));
    const summary = el("div", { class: "scores", id: "review-summary" }, result.summary.map((s) => el("span", {},
      el("b", {}, names[s.seat]), `: ${s.mistakes} mistake${s.mistakes === 1 ? "" : "s"}, `,
      `${s.points_lost.toFixed(2)} points lost, accuracy ${s.accuracy === null ? "–" : `${Math.round(100 * s.accuracy)}%`}`)));
    body.replaceChildren(summary, graph.node, timeline, detail);
    const first = decisions.findIndex((d) => isMistake(d, threshold));
    choose(first >= 0 ? first : 0);

    function choose(i, chosen = false) {
      if (chosen && onChoose) onChoose(decisions[i]);
      chips.forEach((chip, k) => chip.classList.toggle("selected", k === i));
      graph.select(i);
      detail.replaceChildren(decisionDetail(decisions[i], threshold, names));
    }
  }
}

// Seat 0's value through the decisions, deal after deal, mistakes marked in the colour of
// the seat that made them; a click on a point chooses its decision.
function valueGraph(decisions, threshold, names, choose) {
  const width = PAD * 2 + Math.max(1, decisions.length - 1) * STEP;
  const y = (v) => ((TOP - v) / (TOP - BOTTOM)) * HEIGHT;
  const x = (i) => PAD + i * STEP;
  const values = decisions.map(seat0Value);
  const cursor = svg("line", { class: "cursor", y1: 0, y2: HEIGHT });
  const node = svg("svg", { viewBox: `0 0 ${width} ${HEIGHT}`, class: "value-graph", id: "review-graph", role: "img",
    "aria-label": `Value for ${names[0]} through the deal, mistakes marked` },
    svg("line", { class: "zero", x1: 0, x2: width, y1: y(0), y2: y(0) }), cursor);
  decisions.forEach((d, i) => {
    if (i && d.deal !== decisions[i - 1].deal) node.append(svg("line", { class: "deal-edge", x1: x(i) - STEP / 2, x2: x(i) - STEP / 2, y1: 0, y2: HEIGHT }));
  });
  node.append(svg("polyline", { class: "value", points: values.map((v, i) => `${x(i)},${y(v)}`).join(" ") }));
  decisions.forEach((d, i) => {
    const mistake = isMistake(d, threshold);
    node.append(svg("circle", { cx: x(i), cy: y(values[i]), r: mistake ? 4 : 2.2, class: mistake ? `mistake seat${d.seat}` : "point",
      "data-ply": d.ply, onclick: () => choose(i, true) },
      svg("title", {}, `${names[d.seat]}: ${actionText(d.action)} ${signed(values[i])} for ${names[0]}${mistake ? " (mistake)" : ""}`)));
  });
  const select = (i) => { cursor.setAttribute("x1", x(i)); cursor.setAttribute("x2", x(i)); };
  return { node, select };
}

// One decision: who moved, what it cost, and each legal action with its values.
function decisionDetail(d, threshold, names) {
  const at = (list, a) => (list ? list[d.legal.indexOf(a)] : null);
  const rows = d.legal.map((a) => el("tr", { class: `${a === d.action ? "taken" : ""}${a === d.best ? " best" : ""}` },
    el("td", {}, actionText(a)),
    el("td", {}, `${signed(at(d.values_info, a))} ±${at(d.values_info_se, a).toFixed(2)}`),
    // Double-dummy values are whole points.
    el("td", {}, d.values ? signed(at(d.values, a)).replace(".00", "") : "–"),
    el("td", {}, [a === d.action ? "played" : null, a === d.best ? "best" : null].filter(Boolean).join(", "))));
  const verdict = d.forced ? "the only legal move"
    : d.action === d.best ? "the best move"
      : `lost ${d.loss_info.toFixed(2)} point${d.loss_info === 1 ? "" : "s"}; best: ${actionText(d.best)}`;
  return el("div", {},
    el("p", { id: "review-verdict" }, el("b", {}, `Deal ${d.deal}, move ${d.ply + 1}: ${names[d.seat]} (${d.phase}) ${actionText(d.action)}`),
      ` — ${verdict}${isMistake(d, threshold) ? " (a mistake)" : ""}.`),
    el("div", { class: "wide" }, el("table", { class: "ledger values", id: "review-values" },
      el("tr", {}, el("th", {}, "action"), el("th", {}, "value ± se"), el("th", {}, "double-dummy"), el("th", {}, "")),
      rows)));
}
