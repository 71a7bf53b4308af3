// The page: a router over the screens, one server connection shared by all.
import { Connection } from "./connection.js";
import { el } from "./cards.js";
import { duelScreen, watchScreen } from "./duel.js";
import { bankScreen, tableScreen } from "./bank.js";
import { replayScreen } from "./replay.js";

const statusEl = () => document.getElementById("status");
const server = new Connection((text) => { statusEl().textContent = text; });
let hideTimer = null;

export function say(text, error = false) {
  const box = document.getElementById("message");
  box.textContent = text;
  box.className = `message shown${error ? " error" : ""}`;
  clearTimeout(hideTimer);
  hideTimer = setTimeout(() => { box.className = "message"; }, error ? 6000 : 3500);
}

export function fail(error) {
  // The engine's reason when it gives one ("you must follow ♣"), else its message.
  say(error.reason ? error.reason.text : String(error.message || error), true);
}

function home(main) {
  main.append(
    el("h1", {}, "écarté"),
    el("p", {}, "Play the two-player game against the engine, watch two agents play, step through a saved record, or open a banking table for several people."),
    el("div", { class: "tiles" },
      el("a", { href: "#/duel" }, el("b", {}, "Play a duel"), "Against any built-in level, from easy to expert."),
      el("a", { href: "#/watch" }, el("b", {}, "Watch a match"), "Two built-in agents, deal by deal."),
      el("a", { href: "#/replay" }, el("b", {}, "Replay a record"), "A saved deal, match or bank session, step by step."),
      el("a", { href: "#/bank" }, el("b", {}, "Bank table"), "The Russian banking game: one seat per browser, joined by a link.")));
}

const routes = { "": home, duel: duelScreen, watch: watchScreen, replay: replayScreen, bank: bankScreen };

function route() {
  const main = document.getElementById("main");
  main.replaceChildren();
  server.listeners.clear();
  server.reconnectors.clear();
  const parts = location.hash.replace(/^#\/?/, "").split("/");
  if (parts[0] === "table" && parts[1]) return tableScreen(main, server, parts[1]);
  (routes[parts[0]] || home)(main, server);
}

window.addEventListener("hashchange", route);
route();
