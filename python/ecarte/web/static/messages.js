// The page's one message line: a note (say) or an error the server refused with (fail).
// A message belongs to the screen that showed it: leaving the screen hides it, and an
// answer that comes after the screen was left shows nothing.
let hideTimer = null;
let screen = 0;

function hide() {
  clearTimeout(hideTimer);
  document.getElementById("message").className = "message";
}

function show(text, error) {
  const box = document.getElementById("message");
  box.textContent = text;
  box.className = `message shown${error ? " error" : ""}`;
  clearTimeout(hideTimer);
  hideTimer = setTimeout(hide, error ? 6000 : 3500);
}

// Called when a screen is left, before the next one is drawn.
export function leaveScreen() {
  screen += 1;
  hide();
}

// The message line of the screen being drawn now: `say(text)` and `fail(error)`, the
// engine's reason when it gives one ("you must follow ♣"), else its message; the error's
// type stays a field for programs and is never shown.
export function messages() {
  const mine = screen;
  const say = (text, error = false) => { if (mine === screen) show(text, error); };
  const fail = (error) => say(error.reason ? error.reason.text : String(error.message || error), true);
  return { say, fail };
}
