// The banking table: one seat per browser, joined by the table's link; every seat sees
// the punters' view (the tableaux face down until the reveal).
import { back, card, cardText, el } from "./cards.js";
import { messages } from "./messages.js";
import { seatGone, seatMoved } from "./connection.js";

const COLOURS = ["#f5c400", "#7fd1ff", "#ff8a80", "#b9f6ca", "#e1bee7", "#ffcc80", "#cfd8dc", "#f48fb1"];

export function bankScreen(main, server, hello) {
  const { fail } = messages();
  // The table's own defaults and modes, from the engine (hello's "table").
  const defaults = hello.table.defaults;
  const modes = hello.table.modes.map((mode) => el("option", { value: mode, selected: mode === defaults.mode }, mode));
  main.append(el("div", { class: "panel" }, el("h2", {}, "Open a banking table"),
    el("p", {}, "Name the players in seat order; the first holds the bank. Each player opens the table's link in their own browser and takes their seat."),
    el("div", { class: "row" },
      el("label", { class: "grow" }, "Players", el("input", { id: "players", value: "ann, bob" })),
      el("label", {}, "Bank", el("input", { id: "bank", type: "number", value: defaults.bank })),
      el("label", {}, "Fixed stake", el("input", { id: "fixed", type: "number", value: defaults.fixed_stake })),
      el("label", {}, "Chips each", el("input", { id: "chips", type: "number", value: defaults.chips })),
      el("label", {}, "Mode", el("select", { id: "mode" }, ...modes)),
      el("button", { class: "primary", id: "create-table", onclick: create }, "Open the table"))));

  async function create() {
    const players = document.getElementById("players").value.split(",").map((p) => p.trim()).filter(Boolean);
    try {
      const r = await server.request("new", {
        kind: "table", players, bank: Number(document.getElementById("bank").value),
        fixed_stake: Number(document.getElementById("fixed").value), chips: Number(document.getElementById("chips").value),
        mode: document.getElementById("mode").value,
      });
      location.hash = `#/table/${r.game}`;
    } catch (error) { fail(error); }
  }
}

function chart(ledger, players) {
  // Each player's chips after every deal, one line each (SVG, no library).
  const width = 520, height = 180, pad = 28;
  const values = ledger.flatMap((entry) => players.map((p) => entry.chips[p]));
  const low = Math.min(...values), high = Math.max(...values, low + 1);
  const x = (i) => pad + (ledger.length > 1 ? (i * (width - 2 * pad)) / (ledger.length - 1) : 0);
  const y = (v) => height - pad - ((v - low) * (height - 2 * pad)) / (high - low);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "chart");
  svg.setAttribute("id", "chip-chart");
  svg.setAttribute("width", width);
  const add = (tag, attrs, text) => {
    const node = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    svg.append(node);
  };
  add("text", { x: 4, y: 14, fill: "#fff", "font-size": 11 }, String(high));
  add("text", { x: 4, y: height - 6, fill: "#fff", "font-size": 11 }, String(low));
  players.forEach((p, k) => {
    const points = ledger.map((entry, i) => `${x(i)},${y(entry.chips[p])}`).join(" ");
    add("polyline", { points, fill: "none", stroke: COLOURS[k % COLOURS.length], "stroke-width": 2 });
    add("text", { x: width - pad - 60, y: 16 + 13 * k, fill: COLOURS[k % COLOURS.length], "font-size": 12 }, p);
  });
  return svg;
}

const LABELS = { deal: "Deal", reveal: "Reveal", settle: "Settle", restake_bank: "Restake the bank", declare_responsible: "Declare the bank responsible", pass_bank: "Pass the bank", shuffle_rest: "Shuffle the rest" };

function actionControls(legal, fixedStake, onAct) {
  // One control per action the server says the seat may take now, with the bounds it gives:
  // an action that is whole is a button; one that takes an amount gets a number field.
  const controls = [];
  const stakes = legal.filter((a) => a.name === "stake");
  const ranged = stakes.filter((a) => a.bounds.min < a.bounds.max);
  let amount = null;
  if (ranged.length) {
    const low = Math.min(...ranged.map((a) => a.bounds.min)), high = Math.max(...ranged.map((a) => a.bounds.max));
    amount = el("input", { id: "stake-amount", type: "number", min: low, max: high, value: Math.min(high, Math.max(low, fixedStake)), size: 6 });
  }
  for (const a of stakes) {
    const hint = a.obliged ? { title: "T4 and the reveal wait for a fixed stake here" } : {};
    if (a.bounds.min === a.bounds.max) {
      controls.push(el("button", { class: a.obliged ? "primary obliged" : "primary", "data-stake": a.tableau, ...hint, onclick: () => onAct([...a.action, a.bounds.min]) }, `Stake ${a.bounds.min} on T${a.tableau}`));
    }
  }
  if (amount) controls.push(el("label", {}, "Amount", amount));
  for (const a of ranged) {
    controls.push(el("button", { "data-stake": `${a.tableau}-amount`, onclick: () => onAct([...a.action, Number(amount.value)]) }, `Stake on T${a.tableau} (${a.bounds.min}–${a.bounds.max})`));
  }
  for (const a of legal) {
    if (a.name === "stake") continue;
    const label = LABELS[a.name] || a.name;
    if (a.bounds && a.bounds.argument === "amount") {
      const field = el("input", { id: `${a.name}-amount`, type: "number", min: a.bounds.min, max: a.bounds.max, value: a.bounds.default ?? a.bounds.max, size: 6 });
      controls.push(el("label", {}, "Bank", field), el("button", { class: "primary", "data-action": a.name, onclick: () => onAct([...a.action, Number(field.value)]) }, `${label} (${a.bounds.min}–${a.bounds.max})`));
    } else {
      controls.push(el("button", { class: "primary", "data-action": a.name, onclick: () => onAct([...a.action]) }, label));
    }
  }
  return controls;
}

export function tableBoard(state, { onAct } = {}) {
  // The table as every seat sees it; controls only for the seat's own legal actions.
  const resultOf = (t) => (state.results ? state.results.find((r) => r.tableau === t) : null);
  const tableaux = [1, 2, 3, 4].map((t) => {
    const result = resultOf(t);
    const cards = state.tableaux ? state.tableaux[t - 1].map((c) => card(c, { small: true })) : state.trump_card ? [0, 1, 2, 3].map(() => back({ small: true })) : [];
    const stakes = state.stakes.filter((s) => s.tableau === t);
    return el("div", { class: "tableau", "data-tableau": t },
      el("b", {}, `T${t}`, t === 1 ? " (bank)" : ""), " ",
      result ? el("span", { class: `badge ${result.outcome}` }, `${result.outcome.replace("_", " ")} ${result.banker_tricks}–${result.punter_tricks}`) : null,
      el("div", { class: "cards" }, cards),
      stakes.map((s) => el("div", { class: "count" }, `${s.player}: ${s.amount}`)));
  });
  const you = state.you;
  const controls = onAct ? actionControls(state.legal_actions || [], state.fixed_stake, onAct) : [];
  return el("div", {},
    el("div", { class: "panel scores", id: "table-status" },
      el("span", {}, "Banker: ", el("b", {}, state.banker)), el("span", {}, "Bank: ", el("b", { id: "bank-amount" }, state.bank)),
      el("span", {}, `Phase: `, el("b", { id: "phase" }, state.phase)), el("span", {}, `Deals: ${state.deals_played ?? ""}`),
      state.trump_card ? el("span", {}, "Trump card: ", card(state.trump_card, { small: true, classes: "trump-card" })) : null,
      you ? el("span", {}, "You are ", el("b", { id: "you" }, you)) : null,
      state.connected ? el("span", { id: "presence" }, "Seated: ",
        state.seated.map((i) => (state.connected.includes(i) ? state.players[i] : `${state.players[i]} (away)`)).join(", ")) : null),
    el("div", { class: "panel" }, el("div", { class: "tableaux" }, tableaux),
      el("div", { class: "actions", id: "table-actions" }, controls)),
    el("div", { class: "panel row" },
      el("div", { class: "wide" }, el("h3", {}, "Chips"), el("table", { class: "ledger", id: "chips" },
        Object.entries(state.chips).map(([p, c]) => el("tr", {}, el("td", {}, p), el("td", {}, c))))),
      state.ledger ? el("div", {}, el("h3", {}, "Chip chart"), chart(state.ledger, Object.keys(state.chips))) : null,
      state.ledger ? el("div", { class: "wide" }, el("h3", {}, "Ledger"), el("table", { class: "ledger", id: "ledger" },
        el("tr", {}, el("th", {}, "deal"), el("th", {}, "banker"), el("th", {}, "bank"), Object.keys(state.chips).map((p) => el("th", {}, p))),
        state.ledger.map((e) => el("tr", {}, el("td", {}, e.deal), el("td", {}, e.banker), el("td", {}, e.bank), Object.keys(state.chips).map((p) => el("td", {}, e.chips[p])))))) : null));
}

export function tableScreen(main, server, game) {
  const { say, fail } = messages();
  const key = `ecarte.table.${game}`;
  const board = el("div", { id: "table-board" });
  const link = `${location.origin}/#/table/${game}`;
  main.append(el("div", { class: "panel" }, el("h2", {}, "Banking table"),
    el("div", {}, "Share this link with the other players: ", el("span", { class: "link", id: "table-link" }, link))), board);
  let seat = null;

  async function act(action) {
    try { show(await server.request("apply", { game, action })); } catch (error) { fail(error); }
  }

  async function odds() {
    try {
      const r = await server.request("odds", { game });
      say(`Odds for one tableau with ${cardText(r.trump_card)} turned up: punter ${(100 * r.punter).toFixed(1)}%, en carte ${(100 * r.en_carte).toFixed(1)}%, banker ${(100 * r.banker).toFixed(1)}%`);
    } catch (error) { fail(error); }
  }

  function show(state) {
    const view = tableBoard(state, { onAct: act });
    if (state.trump_card) view.querySelector("#table-actions").append(el("button", { id: "odds", onclick: odds }, "Odds"));
    board.replaceChildren(view);
    board.dataset.version = String(Number(board.dataset.version || 0) + 1);
  }

  function joinForm(state) {
    const taken = new Set(state.seated);
    board.replaceChildren(el("div", { class: "panel" }, el("h3", {}, "Take your seat"),
      el("div", { class: "actions" }, state.players.map((p, i) => el("button", {
        class: "primary", "data-join": p, disabled: taken.has(i),
        onclick: async () => {
          try {
            const r = await server.request("join", { game, player: p });
            seat = { player: p, token: r.seat_token };
            localStorage.setItem(key, JSON.stringify(seat));
            show(r.state);
          } catch (error) { fail(error); }
        },
      }, taken.has(i) ? `${p} (taken)` : p)))));
  }

  // The saved seat, taken back with its token; the token is forgotten only when the server
  // says the seat is gone (a dropped connection keeps it: the reconnection tries again).
  async function enter() {
    const saved = localStorage.getItem(key);
    if (saved) {
      seat = JSON.parse(saved);
      try {
        show((await server.request("join", { game, seat_token: seat.token })).state);
        moved = false;
        return;
      } catch (error) {
        if (!seatGone(error)) return;
        localStorage.removeItem(key);
        seat = null;
      }
    }
    try { joinForm(await server.request("join", { game })); } catch (error) { if (seatGone(error)) fail(error); }
  }

  let moved = false;
  server.listeners.add((event) => {
    if (event.game !== game || !seat) return;
    if (event.event === "moved") {
      moved = true;
      board.replaceChildren(seatMoved(enter));
      return;
    }
    if (event.event === "left") say(`${event.player} left the table`);
    show(event.state);
  });
  server.reconnectors.add(() => { if (!moved) enter(); });
  enter();
}
