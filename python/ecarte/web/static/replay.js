// A saved record (deal, match or bank session), replayed by the server and stepped here;
// the record formats and their variants come from the server (hello's "records"), the
// players' names from the record (seat 0 and seat 1 when it has none).
import { el } from "./cards.js";
import { messages } from "./messages.js";
import { frameBoard } from "./duel.js";
import { tableBoard } from "./bank.js";
import { reviewPanel } from "./review.js";

export function replayScreen(main, server, hello) {
  const { fail } = messages();
  const board = el("div", { id: "replay-board" });
  const position = el("span", { id: "replay-step", class: "count" });
  const slider = el("input", { type: "range", min: 0, value: 0, id: "replay-slider", class: "grow" });
  const reviewButton = el("button", { id: "replay-review", onclick: review, disabled: true }, "Review");
  const reviewBox = el("div", { id: "review-box" });
  let frames = [], variant = null, index = 0, names = null, text = null;
  main.append(el("div", { class: "panel" }, el("h2", {}, "Replay a record"),
    el("p", {}, "Open a record saved by ecarte (ecarte play --save, ecarte match --out, a bank session's to_json())."),
    el("div", { class: "row" },
      el("input", { type: "file", id: "record-file", accept: ".json,application/json", onchange: load }),
      el("div", { class: "row steps" },
        el("button", { id: "replay-first", onclick: () => go(0) }, "First"),
        el("button", { id: "replay-prev", onclick: () => go(index - 1) }, "◀"),
        el("button", { id: "replay-next", onclick: () => go(index + 1) }, "▶"),
        el("button", { id: "replay-last", onclick: () => go(frames.length - 1) }, "Last")),
      slider, position, reviewButton)), board, reviewBox);
  slider.addEventListener("input", () => go(Number(slider.value)));
  document.addEventListener("keydown", (e) => {
    if (!document.body.contains(board)) return;
    if (e.key === "ArrowRight") go(index + 1);
    if (e.key === "ArrowLeft") go(index - 1);
  });

  async function load(event) {
    const file = event.target.files[0];
    if (!file) return;
    try {
      const record = await file.text();
      const r = await server.request("replay", { record });
      frames = r.frames; variant = hello.records[r.format].variant;
      names = r.players || ["seat 0", "seat 1"];
      text = record;
      // A duel's deals have moves to review; a bank session's stakes do not.
      reviewButton.disabled = variant !== "duel";
      reviewBox.replaceChildren();
      slider.max = frames.length - 1;
      go(0);
    } catch (error) { fail(error); }
  }

  function review() {
    if (!text) return;
    // A decision chosen in the Review shows its position, before the move, on the board.
    const onChoose = (d) => {
      const start = frames.findIndex((f) => (f.deal_number || 1) === d.deal);
      if (start >= 0) go(start + d.ply);
    };
    const panel = reviewPanel(server, hello, { record: text }, { names, onChoose, onClose: () => reviewBox.replaceChildren() });
    reviewBox.replaceChildren(panel);
    panel.scrollIntoView({ block: "start" });
  }

  function go(k) {
    if (!frames.length) return;
    index = Math.max(0, Math.min(frames.length - 1, k));
    slider.value = index;
    const frame = frames[index];
    position.textContent = `step ${index} of ${frames.length - 1}`;
    if (variant === "bank") {
      const action = frame.action ? frame.action.join(" ") : "the table opens";
      board.replaceChildren(el("div", { class: "panel" }, el("b", {}, action)), tableBoard({ ...frame, legal: [] }));
    } else {
      const header = frame.deal_number ? el("div", { class: "panel scores", id: "replay-score" }, el("span", {}, `Deal ${frame.deal_number}`),
        el("span", {}, `Score: ${names[0]} ${frame.score[0]} – ${names[1]} ${frame.score[1]}`)) : null;
      board.replaceChildren(el("div", {}, header, frameBoard(frame, names)));
    }
  }
}
