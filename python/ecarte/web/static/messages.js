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
  say(`${error.type || "Error"}: ${error.message || error}`, true);
}
