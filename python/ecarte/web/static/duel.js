// The duel: a match against a built-in agent, and a spectator's view of two agents. The
// levels, the default level and rules, and the built-in agents come from the server's
// `hello` (the engine's one registry); the page lists no agent of its own.
import { actionText, back, card, cardText, el, suitText } from "./cards.js";
import { messages } from "./messages.js";
import { seatGone, seatMoved } from "./connection.js";
import { reviewPanel } from "./review.js";

// The agents a spectator may pick: each agent by its name, and the specs the levels play.
function watchable(hello) {
  const specs = [];
  for (const agent of hello.builtin_agents) {
    for (const spec of [...Object.values(agent.levels), agent.name]) if (!specs.includes(spec)) specs.push(spec);
  }
  return specs;
}

// Fills `select` with `values` once `hello` has come, `chosen` selected.
function fill(select, values, chosen) {
  select.replaceChildren(...values.map((v) => el("option", { value: v, selected: v === chosen }, v)));
}

function trickArea(obs, me) {
  const last = obs.tricks.length ? obs.tricks[obs.tricks.length - 1] : null;
  return el("div", { class: "centre" },
    el("div", { class: "pile" },
      obs.talon_size ? back() : null,
      obs.turn_up_holder === null ? card(obs.turn_up, { classes: "turn-up" }) : null,
      el("div", { class: "count" }, `Talon: ${obs.talon_size}`, el("br"), `Trump: ${suitText(obs.trump)}`)),
    el("div", {}, el("div", { class: "seat-label" }, "Current trick"),
      el("div", { class: "cards", id: "trick" }, obs.lead ? card(obs.lead) : el("span", { class: "count" }, "–"))),
    last ? el("div", {}, el("div", { class: "seat-label" }, `Last trick: won by ${last.winner === me ? "you" : "the opponent"}`),
      el("div", { class: "cards" }, last.cards.map((c) => card(c, { small: true })))) : null);
}

export function duelScreen(main, server, hello) {
  const { say, fail } = messages();
  const levels = el("select", { id: "level" });
  fill(levels, Object.keys(hello.levels), hello.default_level);
  const setup = el("div", { class: "panel" },
    el("h2", {}, "Play a duel"),
    el("div", { class: "row" },
      el("label", {}, "Opponent level", levels),
      el("label", {}, "or agent spec", el("input", { id: "spec", placeholder: "e.g. pimc:16", size: 12 })),
      el("label", {}, "Your seat", el("select", { id: "seat" }, el("option", { value: 0 }, "0 (deals first)"), el("option", { value: 1 }, "1"))),
      el("label", {}, "Match to", el("input", { id: "target", type: "number", value: hello.rules.target })),
      el("button", { class: "primary", id: "start", onclick: start }, "Start")));
  const board = el("div", { id: "board" });
  // The Review of the deal just finished, kept apart from the board, which each move draws
  // again; it closes when the next deal's first move is made.
  const reviewBox = el("div", { id: "review-box" });
  main.append(setup, board, reviewBox);
  let game = null;
  let moved = false;
  let seenDraws = 0;
  let view = null;

  async function start() {
    const spec = document.getElementById("spec").value.trim() || document.getElementById("level").value;
    const rules = { target: Number(document.getElementById("target").value) };
    try {
      if (game && !moved) await server.request("close", { game: game.id }).catch(() => {});
      const result = await server.request("new", { kind: "match", opponent: spec, seat: Number(document.getElementById("seat").value), rules });
      game = { id: result.game, token: result.seat_token };
      moved = false;
      reviewBox.replaceChildren();
      sessionStorage.setItem("ecarte.duel", JSON.stringify(game));
      seenDraws = 0;
      show(result.state);
    } catch (error) { fail(error); }
  }

  async function act(action) {
    try { show(await server.request("apply", { game: game.id, action })); } catch (error) { fail(error); }
  }

  async function undo() {
    try { const r = await server.request("undo", { game: game.id }); say(r.undone); show(r.state); } catch (error) { fail(error); }
  }

  async function hint() {
    // The engine's default level gives the hint, within 2 seconds.
    try { const r = await server.request("go", { game: game.id, time: 2 }); say(`Hint (${r.agent}): ${actionText(r.action)}`); } catch (error) { fail(error); }
  }

  // Back to the seat after a reconnection or from another tab; the token is forgotten only
  // when the server says the match is gone.
  async function rejoin() {
    try {
      const r = await server.request("join", { game: game.id, seat_token: game.token });
      moved = false;
      seenDraws = r.state.observation.draws.length;
      show(r.state);
    } catch (error) {
      if (!seatGone(error)) return;
      sessionStorage.removeItem("ecarte.duel");
      game = null;
      board.replaceChildren();
      fail(error);
    }
  }

  server.reconnectors.add(() => { if (game && !moved) rejoin(); });
  server.listeners.add((event) => {
    if (event.event !== "moved" || !game || event.game !== game.id) return;
    moved = true;
    board.replaceChildren(seatMoved(rejoin));
  });

  function review(state) {
    const me = state.seat;
    const names = me === 0 ? ["You", `Opponent (${state.opponent})`] : [`Opponent (${state.opponent})`, "You"];
    const panel = reviewPanel(server, hello, { game: game.id }, { names, deal: state.finished.deal_number, onClose: () => reviewBox.replaceChildren() });
    reviewBox.replaceChildren(panel);
    panel.scrollIntoView({ block: "start" });
  }

  function show(state) {
    view = state;
    if (!state.finished) reviewBox.replaceChildren();
    board.dataset.version = String(Number(board.dataset.version || 0) + 1);
    const obs = state.observation;
    const me = state.seat;
    const legal = new Set(state.legal);
    const newDraws = obs.draws.slice(seenDraws);
    seenDraws = obs.draws.length;
    const cardActions = new Set();
    const hand = obs.hand.map((c) => {
      const action = obs.phase === "discard" ? `discard ${c}` : c;
      cardActions.add(action);
      const classes = [legal.has(action) ? "legal" : "", newDraws.includes(c) ? "drawn" : "", obs.phase === "discard" || obs.phase === "play" ? "playable" : ""].join(" ");
      return card(c, { classes, onclick: () => act(action) });
    });
    const finished = state.finished;
    const banner = finished ? el("div", { id: "result-banner", class: `banner ${finished.outcome.winner === me ? "win" : "loss"}` },
      el("b", {}, `Deal ${finished.deal_number}: `), finished.banner, " ",
      el("button", { id: "review-open", onclick: () => review(state) }, "Review"),
      state.over ? el("div", {}, el("b", {}, state.winner === me ? "You win the match!" : "The opponent wins the match."), " ",
        el("button", { id: "new-match", class: "primary", onclick: start }, "New match")) : null) : null;
    board.replaceChildren(el("div", { class: "board" },
      el("div", {},
        el("div", { class: "panel scores", id: "scores" },
          el("span", {}, "Deal ", el("b", {}, state.deal_number)),
          el("span", {}, "Score: you ", el("b", { id: "my-score" }, state.score[me]), " – opponent ", el("b", {}, state.score[1 - me]), ` (to ${state.target})`),
          el("span", {}, obs.dealer === me ? "You deal" : "The opponent deals"),
          el("span", {}, `Exchanges: ${obs.exchanges}`),
          el("span", {}, `Tricks: you ${obs.tricks_taken[me]}, opponent ${obs.tricks_taken[1 - me]}`),
          el("span", {}, `Phase: ${obs.phase}`)),
        banner,
        el("div", { class: "panel" },
          el("div", { class: "seat-label" }, `Opponent (${state.opponent})`),
          el("div", { class: "cards", id: "opponent-hand" }, Array.from({ length: obs.hand_sizes[1 - obs.player] }, () => back())),
          trickArea(obs, me),
          el("div", { class: "seat-label" }, state.legal.length ? "Your move" : state.over ? "Match over" : "Waiting"),
          el("div", { class: "cards", id: "hand" }, hand),
          el("div", { class: "actions" },
            // The legal actions that are no card of the hand: the calls, in the engine's order.
            state.legal.filter((a) => !cardActions.has(a)).map((a) => el("button", { class: "primary", "data-action": a, onclick: () => act(a) }, a)),
            el("button", { id: "undo", onclick: undo, disabled: !state.can_undo }, "Undo"),
            el("button", { id: "hint", onclick: hint, disabled: !state.legal.length }, "Hint")))),
      el("div", { class: "panel" }, el("h3", {}, "Log"),
        el("div", { class: "log", id: "log" }, state.log.map((line) => el("div", {}, line))))));
    const log = document.getElementById("log");
    log.scrollTop = log.scrollHeight;
  }

  const saved = sessionStorage.getItem("ecarte.duel");
  if (saved) {
    game = JSON.parse(saved);
    rejoin();
  }
  return () => view;
}

export function frameBoard(frame, names) {
  // One step of a deal seen by a spectator: both hands face up, never the talon.
  const hands = [1, 0].map((seat) => el("div", { class: "panel" },
    el("div", { class: "seat-label" }, `${names[seat]}${frame.dealer === seat ? " (dealer)" : ""}${frame.current_player === seat ? " — to move" : ""}: tricks ${frame.tricks_taken[seat]}, cards ${frame.cards_taken[seat]}`),
    el("div", { class: "cards" }, frame.hands[seat].map((c) => card(c))),
    frame.discards[seat].length ? el("div", { class: "seat-label" }, `discards: ${frame.discards[seat].map(cardText).join(" ")}`) : null));
  const last = frame.tricks.length ? frame.tricks[frame.tricks.length - 1] : null;
  const centre = el("div", { class: "panel centre" },
    el("div", { class: "pile" }, frame.talon_size ? back() : null,
      frame.turn_up_holder === null ? card(frame.turn_up) : null,
      el("div", { class: "count" }, `Talon: ${frame.talon_size}`, el("br"), `Exchanges: ${frame.exchanges}`)),
    el("div", {}, el("div", { class: "seat-label" }, "Current trick"), el("div", { class: "cards" }, frame.lead ? card(frame.lead) : "–")),
    last ? el("div", {}, el("div", { class: "seat-label" }, `Last trick → ${names[last.winner]}`), el("div", { class: "cards" }, last.cards.map((c) => card(c, { small: true })))) : null,
    el("div", { class: "count" }, frame.action === null ? "The deal" : `${names[frame.actor]}: ${actionText(frame.action)}`));
  const outcome = frame.outcome ? el("div", { class: "banner", id: "frame-result" },
    `${names[frame.outcome.winner]} wins the deal, ${frame.outcome.points} point${frame.outcome.points > 1 ? "s" : ""}: ${frame.outcome.reason.replace(/seat (\d)/g, (_, s) => names[Number(s)])}.`) : null;
  return el("div", {}, hands[0], centre, hands[1], outcome);
}

export function watchScreen(main, server, hello) {
  const { fail } = messages();
  const seats = [el("select", { id: "agent0" }), el("select", { id: "agent1" })];
  // The easiest level against the default one, until the spectator picks others.
  const levels = Object.values(hello.levels);
  fill(seats[0], watchable(hello), levels[0]);
  fill(seats[1], watchable(hello), hello.levels[hello.default_level]);
  const next = el("button", { id: "next-deal", onclick: nextDeal, disabled: true }, "Next deal");
  const board = el("div", { id: "watch-board" });
  const info = el("div", { class: "scores" });
  let game = null, token = null, frames = [], index = 0, timer = null, names = ["seat 0", "seat 1"];
  main.append(el("div", { class: "panel" }, el("h2", {}, "Watch a match"),
    el("div", { class: "row" },
      el("label", {}, "Seat 0", seats[0]), el("label", {}, "Seat 1", seats[1]),
      el("label", {}, "Match to", el("input", { id: "watch-target", type: "number", value: hello.rules.target })),
      el("label", {}, "Speed", el("select", { id: "speed" }, [["slow", 1200], ["normal", 600], ["fast", 200]].map(([n, ms]) => el("option", { value: ms, selected: n === "normal" }, n)))),
      el("button", { class: "primary", onclick: start }, "Start"),
      next), info), board);

  async function start() {
    names = [document.getElementById("agent0").value, document.getElementById("agent1").value];
    next.disabled = true;
    try {
      if (game) await server.request("close", { game }).catch(() => {});
      const r = await server.request("new", { kind: "match", agents: names, rules: { target: Number(document.getElementById("watch-target").value) } });
      game = r.game;
      next.disabled = false;
      token = r.seat_token;
      names = names.map((n, i) => `${n} (seat ${i})`);
      nextDeal();
    } catch (error) { fail(error); }
  }

  // Back to the match after a reconnection (the server may have restarted): its token
  // makes the new connection its spectator.
  server.reconnectors.add(() => {
    if (game && token) server.request("join", { game, seat_token: token }).catch(fail);
  });

  async function nextDeal() {
    if (!game) return;
    try {
      const r = await server.request("advance", { game });
      frames = r.frames; index = 0;
      next.disabled = r.over;
      info.replaceChildren(el("span", {}, `Deal ${r.deal_number}`), el("span", {}, `Score: ${names[0]} ${r.score[0]} – ${names[1]} ${r.score[1]} (to ${r.target})`),
        el("b", {}, r.over ? `${names[r.winner]} wins the match.` : ""));
      play();
    } catch (error) { fail(error); }
  }

  function play() {
    clearInterval(timer);
    board.replaceChildren(frameBoard(frames[0], names));
    timer = setInterval(() => {
      if (!document.body.contains(board)) return clearInterval(timer);
      index += 1;
      if (index >= frames.length) return clearInterval(timer);
      board.replaceChildren(frameBoard(frames[index], names));
    }, Number(document.getElementById("speed").value));
  }
}
