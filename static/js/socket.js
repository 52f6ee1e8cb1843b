// The table's WebSocket: reconnects with backoff, tracks the table's `seq`,
// and asks for a full snapshot (`resync`) after a gap or a reconnect.

const PING_MS = 25000;
const MAX_BACKOFF_MS = 10000;
const CLOSE_UNAUTHENTICATED = 4401;
const CLOSE_NO_TABLE = 4404;
const CLOSE_TOO_MANY_SOCKETS = 4429;
// The wait before signing in again after a 4401: the server closes the sockets while the request
// that changed the password is still running, and the browser has its new cookie only once that
// request's answer arrives.
const SIGN_IN_RETRY_MS = 2000;

export class TableSocket {
  /**
   * @param {string} path  e.g. "/ws/tables/3/"
   * @param {{onMessage: Function, onStatus: Function}} handlers
   */
  constructor(path, { onMessage, onStatus }) {
    this.path = path;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.seq = null; // the last table event seq applied
    this.actSeq = 0; // our own counter for `act`, strictly increasing per connection
    this.attempt = 0;
    this.retryTimer = null;
    this.pingTimer = null;
    this.stopped = false;
    // A 4401 on a socket that had been working may only mean its session key changed: a new
    // password keeps this browser signed in under a new key, which a fresh socket sends. Try
    // once, shortly; a socket refused before it ever worked means the browser is signed out.
    this.signInRetried = false;
    window.addEventListener("online", () => this.reconnectNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.reconnectNow();
    });
  }

  url() {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${window.location.host}${this.path}`;
  }

  connect() {
    if (this.stopped) return;
    window.clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.onStatus(this.attempt ? "reconnecting" : "connecting", { seconds: 0 });
    const ws = new WebSocket(this.url());
    this.ws = ws;
    let working = false; // the server sent this socket something: its session signed it in
    ws.addEventListener("open", () => {
      this.attempt = 0;
      this.actSeq = 0;
      this.onStatus("connected");
      // After any (re)connect the screen may be stale: ask for everything.
      this.send({ type: "resync" });
      this.pingTimer = window.setInterval(() => this.send({ type: "ping" }), PING_MS);
    });
    ws.addEventListener("message", (event) => {
      if (!working) {
        working = true;
        this.signInRetried = false;
      }
      this.receive(event.data);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      window.clearInterval(this.pingTimer);
      this.ws = null;
      if (event.code === CLOSE_UNAUTHENTICATED && working && !this.signInRetried) {
        this.signInRetried = true;
        this.scheduleReconnect("reconnecting", SIGN_IN_RETRY_MS);
        return;
      }
      if (event.code === CLOSE_UNAUTHENTICATED || event.code === CLOSE_NO_TABLE) {
        // Trying again cannot help: say why ("closed": log in again; "gone": no such table).
        this.stopped = true;
        this.onStatus(event.code === CLOSE_UNAUTHENTICATED ? "closed" : "gone");
        return;
      }
      // Over the per-user socket cap: the player must close another table first, so say so
      // and try again at the slowest pace (it works as soon as another table's socket ends).
      this.scheduleReconnect(event.code === CLOSE_TOO_MANY_SOCKETS ? "too_many" : "reconnecting");
    });
  }

  scheduleReconnect(status = "reconnecting", wait = null) {
    const backoff = status === "too_many" ? MAX_BACKOFF_MS : Math.min(MAX_BACKOFF_MS, 500 * 2 ** this.attempt);
    const base = wait ?? backoff;
    const delay = Math.round(base * (0.75 + Math.random() * 0.5));
    this.attempt += 1;
    const until = Date.now() + delay;
    const show = () => {
      const seconds = Math.max(0, Math.ceil((until - Date.now()) / 1000));
      this.onStatus(status, { seconds });
    };
    show();
    const countdown = window.setInterval(show, 500);
    this.retryTimer = window.setTimeout(() => {
      window.clearInterval(countdown);
      this.connect();
    }, delay);
  }

  /** Skip the wait when the browser says the network or the tab is back. */
  reconnectNow() {
    if (this.stopped || this.ws) return;
    window.clearTimeout(this.retryTimer);
    this.connect();
  }

  receive(data) {
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    if ((msg.type === "state" || msg.type === "result") && typeof msg.seq === "number") {
      const last = this.seq;
      // An old or duplicate snapshot (e.g. the one sent on reconnect when nothing changed).
      if (msg.type === "state" && last !== null && msg.seq <= last) return;
      // A `result` carries the seq of the `state` it follows, so only an older one is stale.
      if (msg.type === "result" && last !== null && msg.seq < last) return;
      // A gap: a broadcast was missed. This snapshot is whole, so show it, and also
      // ask for the current one as the protocol says (its answer wins if newer).
      if (last !== null && msg.seq > last + 1) this.send({ type: "resync" });
      this.seq = Math.max(last ?? msg.seq, msg.seq);
    }
    // The keep-alive's answer carries the table's seq: ahead of ours, a broadcast was lost.
    if (msg.type === "pong" && typeof msg.seq === "number" && this.seq !== null && msg.seq > this.seq) {
      this.send({ type: "resync" });
    }
    this.onMessage(msg);
  }

  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  act(action) {
    this.actSeq += 1;
    return this.send({ type: "act", seq: this.actSeq, action });
  }
}

/** The round socket (banker games): a state may come twice with one seq (a snapshot, then the change it already showed). */
export class RoundSocket extends TableSocket {
  receive(data) {
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    if (msg.type === "state" && typeof msg.seq === "number") {
      const last = this.seq;
      if (last !== null && msg.seq < last) return;
      if (last !== null && msg.seq > last + 1) this.send({ type: "resync" });
      this.seq = Math.max(last ?? msg.seq, msg.seq);
    }
    this.onMessage(msg);
  }
}
