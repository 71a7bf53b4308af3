// The page's one message line: a note (say) or an error the server refused with (fail).
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
