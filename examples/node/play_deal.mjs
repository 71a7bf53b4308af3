// Plays one whole duel deal through `ecarte engine` (docs/protocol.md), using only
// Node's standard library: the engine is a child process spoken to in JSON lines.
//
//   node examples/node/play_deal.mjs [seed] [-- engine command...]
//
// Seat 0 asks the engine's heuristic for its moves (`go`); seat 1 plays the first legal
// action. Prints one JSON line: the seed, the actions and the outcome.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const args = process.argv.slice(2);
const split = args.indexOf("--");
const seed = Number(split === 0 ? 1 : args[0] ?? 1);
const command = split >= 0 ? args.slice(split + 1) : ["ecarte", "engine"];

const engine = spawn(command[0], command.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
const lines = createInterface({ input: engine.stdout });
const waiting = new Map();
let nextId = 1;
lines.on("line", (line) => {
  const response = JSON.parse(line);
  const done = waiting.get(response.id);
  waiting.delete(response.id);
  if (!done) throw new Error(`an answer to no request: ${line}`);
  if (response.ok) done.resolve(response.result);
  else done.reject(new Error(`${response.error.type}: ${response.error.message}`));
});

function request(cmd, fields = {}) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    engine.stdin.write(JSON.stringify({ id, cmd, ...fields }) + "\n");
  });
}

const hello = await request("hello");
if (hello.protocol !== "ecarte-engine" || hello.version !== 1) throw new Error("not protocol 1");
const { game, state: first } = await request("new", { kind: "deal", seed, dealer: 0 });
let state = first;
const actions = [];
// A refused action is an error answer, and the engine goes on.
await request("apply", { game, action: "not an action" }).then(
  () => { throw new Error("accepted nonsense"); },
  (error) => { if (!error.message.startsWith("InvalidActionError")) throw error; });
while (!state.over) {
  let action;
  if (state.current_player === 0) action = (await request("go", { game, agent: "heuristic" })).action;
  else action = (await request("legal", { game })).legal[0];
  state = await request("apply", { game, action });
  actions.push(action);
}
const record = (await request("record", { game })).record;
await request("quit");
engine.stdin.end();
console.log(JSON.stringify({ seed, actions, outcome: state.outcome, record }));
