// The verify page of a one-player play: the browser recomputes the revealed seed's SHA-256 and the
// play's first HMAC-SHA256 block itself, so the player need not trust the server's own check.
(async () => {
  const input = JSON.parse(document.getElementById("verify-input").textContent);
  const seed = new Uint8Array(input.seed.match(/../g).map((h) => parseInt(h, 16)));
  const hex = (buf) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");
  const hash = hex(await crypto.subtle.digest("SHA-256", seed));
  document.getElementById("browser-hash").textContent = hash;
  document.getElementById("browser-hash-ok").textContent = hash === input.hash ? "✓" : "✗";
  const key = await crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const block = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(input.message));
  document.getElementById("browser-hmac").textContent = hex(block);
})();
