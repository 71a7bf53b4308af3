// The page: a router over the screens, one server connection shared by all. A screen is
// drawn once the server's `hello` has come: the engine's registry (levels, agents, record
// formats) and its card texts.
import { Connection } from "./connection.js";
import { el, useFaces } from "./cards.js";
import { leaveScreen } from "./messages.js";
import { duelScreen, watchScreen } from "./duel.js";
import { bankScreen, tableScreen } from "./bank.js";
import { replayScreen } from "./replay.js";

const statusEl = () => document.getElementById("status");
const server = new Connection((text) => { statusEl().textContent = text; });

function home(main, server, hello) {
  const levels = Object.keys(hello.levels);
  main.append(
    el("h1", {}, "écarté"),
    el("p", {}, "Play the two-player game against the engine, watch two agents play, step through a saved record, or open a banking table for several people."),
    el("div", { class: "tiles" },
      el("a", { href: "#/duel", id: "tile-duel" }, el("b", {}, "Play a duel"), `Against any built-in level, from ${levels[0]} to ${levels[levels.length - 1]}.`),
      el("a", { href: "#/watch" }, el("b", {}, "Watch a match"), "Two built-in agents, deal by deal."),
      el("a", { href: "#/replay" }, el("b", {}, "Replay a record"), "A saved deal, match or bank session, step by step."),
      el("a", { href: "#/bank" }, el("b", {}, "Bank table"), "The Russian banking game: one seat per browser, joined by a link.")));
}

const routes = { "": home, duel: duelScreen, watch: watchScreen, replay: replayScreen, bank: bankScreen };
let drawn = 0;

async function route() {
  const main = document.getElementById("main");
  const mine = ++drawn;
  main.replaceChildren();
  leaveScreen();
  server.listeners.clear();
  server.reconnectors.clear();
  const hello = await server.hello;
  if (mine !== drawn) return; // another screen was asked for meanwhile
  useFaces(hello);
  const parts = location.hash.replace(/^#\/?/, "").split("/");
  if (parts[0] === "table" && parts[1]) return tableScreen(main, server, parts[1]);
  (routes[parts[0]] || home)(main, server, hello);
}

window.addEventListener("hashchange", route);
route();
