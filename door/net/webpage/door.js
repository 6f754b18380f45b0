// The cribbage door in a page: xterm.js shows the door's bytes, a
// WebSocket carries them; the window's size goes to the door as a resize,
// and a row of keys stands in for a keyboard on a phone.
(function () {
  "use strict";
  const MIN_COLS = 80, MIN_ROWS = 25, READABLE = 12;
  const KEYS = {
    left: "\x1b[D", up: "\x1b[A", down: "\x1b[B", right: "\x1b[C", "return": "\r", del: "\x7f", esc: "\x1b",
    "ctrl-l": "\x0c", "0": "0", "1": "1", "2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7", "8": "8",
    "9": "9"
  };
  const status = document.getElementById("status");
  // the door's black is black (xterm.js's own palette has a dark grey for it)
  const term = new Terminal({ cols: MIN_COLS, rows: MIN_ROWS, fontSize: 16, convertEol: false,
                              scrollback: 0, cursorBlink: true,
                              theme: { background: "#000000", black: "#000000" } });
  const fit = new FitAddon.FitAddon();
  term.loadAddon(fit);
  term.open(document.getElementById("screen"));
  window.doorTerminal = term;  // (read by the tests)

  // the largest font that still shows at least 80 columns and 25 rows
  function size() {
    let font = 18;
    for (let i = 0; i < 12; i++) {
      term.options.fontSize = font;
      const want = fit.proposeDimensions();
      if (!want || (want.cols >= MIN_COLS && want.rows >= MIN_ROWS) || font <= 6) break;
      font -= 1;
    }
    const want = fit.proposeDimensions();
    if (want) term.resize(Math.max(MIN_COLS, want.cols), Math.max(MIN_ROWS, want.rows));
    small = font < READABLE;
    if (small) {  // said, rather than a screen too small to read
      status.textContent = "This window is too small for the door's 80x25 screen (" + font + " px text): " +
        "turn the phone sideways, widen the window, or play at the card table, /table.";
    } else if (status.textContent.indexOf("too small") >= 0) {
      status.textContent = "Connected.";
    }
  }
  let small = false;

  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(scheme + "//" + location.host + "/ws");
  socket.binaryType = "arraybuffer";
  const encoder = new TextEncoder();

  function send(text) {
    if (socket.readyState === WebSocket.OPEN) socket.send(encoder.encode(text));
  }
  function tellSize() {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ cols: term.cols, rows: term.rows }));
  }

  socket.addEventListener("open", function () {
    status.textContent = "Connected.";
    size();
    tellSize();
    term.focus();
  });
  socket.addEventListener("message", function (event) {
    if (typeof event.data !== "string") term.write(new Uint8Array(event.data));
  });
  socket.addEventListener("close", function () {
    status.textContent = "The connection is closed. Reload the page to call again.";
  });
  term.onData(send);
  term.onBinary(function (data) {
    const bytes = new Uint8Array(data.length);
    for (let i = 0; i < data.length; i++) bytes[i] = data.charCodeAt(i) & 255;
    if (socket.readyState === WebSocket.OPEN) socket.send(bytes);
  });
  term.onResize(tellSize);
  window.addEventListener("resize", size);
  document.querySelectorAll("#keys button").forEach(function (button) {
    button.addEventListener("click", function () {
      send(KEYS[button.dataset.key]);
      term.focus();
    });
  });
  size();
})();
