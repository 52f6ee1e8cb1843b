// Sound effects for the table, synthesized with the Web Audio API (no sound files), and the
// mute switch, remembered per player in localStorage.
//
// Browsers start an AudioContext only after a user gesture, so the context is made on the
// first sound after a click or key; until then sounds are skipped silently.

const EFFECTS = {
  // A card laid down: a short, soft knock.
  play: [{ type: "triangle", from: 520, to: 260, at: 0, length: 0.09, gain: 0.25 }],
  // 不出: a low, quiet tick.
  pass: [{ type: "sine", from: 240, to: 200, at: 0, length: 0.08, gain: 0.15 }],
  // Your turn: two rising notes.
  turn: [
    { type: "sine", from: 660, to: 660, at: 0, length: 0.1, gain: 0.18 },
    { type: "sine", from: 880, to: 880, at: 0.11, length: 0.12, gain: 0.18 },
  ],
  // 炸弹: a burst of noise falling in pitch, over a low thump.
  bomb: [
    { type: "noise", at: 0, length: 0.45, gain: 0.5, filterFrom: 2400, filterTo: 180 },
    { type: "sine", from: 120, to: 40, at: 0, length: 0.4, gain: 0.6 },
  ],
  // 火箭: a rising whistle, then the burst.
  rocket: [
    { type: "sawtooth", from: 300, to: 1800, at: 0, length: 0.45, gain: 0.12 },
    { type: "noise", at: 0.42, length: 0.5, gain: 0.5, filterFrom: 3000, filterTo: 200 },
    { type: "sine", from: 140, to: 40, at: 0.42, length: 0.45, gain: 0.6 },
  ],
  // 春天 and a won hand: a bright arpeggio.
  spring: [523, 659, 784, 1047].map((f, i) => ({ type: "triangle", from: f, to: f, at: i * 0.09, length: 0.22, gain: 0.22 })),
  win: [523, 659, 784].map((f, i) => ({ type: "triangle", from: f, to: f, at: i * 0.1, length: 0.2, gain: 0.2 })),
  lose: [392, 330, 262].map((f, i) => ({ type: "sine", from: f, to: f * 0.97, at: i * 0.12, length: 0.22, gain: 0.2 })),
};

/** Return the sound switch of player `playerKey`: play(effect), muted(), setMuted(bool). */
export function soundBoard(playerKey) {
  const storageKey = `table.sound.muted.${playerKey ?? "anonymous"}`;
  let context = null;
  let gestured = false;
  for (const event of ["pointerdown", "keydown"]) {
    window.addEventListener(event, () => { gestured = true; }, { capture: true, once: true });
  }

  function muted() {
    try {
      return window.localStorage.getItem(storageKey) === "1";
    } catch {
      return false;
    }
  }

  function setMuted(value) {
    try {
      if (value) window.localStorage.setItem(storageKey, "1");
      else window.localStorage.removeItem(storageKey);
    } catch {
      // Private mode without storage: the switch holds for this page only.
    }
    if (value && context) context.suspend();
    else if (!value && context) context.resume();
  }

  function audio() {
    if (context || !gestured) return context;
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    context = new Context();
    return context;
  }

  function voice(ctx, spec, start) {
    const gain = ctx.createGain();
    const begin = start + spec.at;
    const end = begin + spec.length;
    gain.gain.setValueAtTime(0.0001, begin);
    gain.gain.exponentialRampToValueAtTime(spec.gain, begin + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, end);
    gain.connect(ctx.destination);
    let source;
    if (spec.type === "noise") {
      const buffer = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * spec.length), ctx.sampleRate);
      const data = buffer.getChannelData(0);
      for (let i = 0; i < data.length; i += 1) data[i] = Math.random() * 2 - 1;
      source = ctx.createBufferSource();
      source.buffer = buffer;
      const filter = ctx.createBiquadFilter();
      filter.type = "lowpass";
      filter.frequency.setValueAtTime(spec.filterFrom, begin);
      filter.frequency.exponentialRampToValueAtTime(spec.filterTo, end);
      source.connect(filter).connect(gain);
    } else {
      source = ctx.createOscillator();
      source.type = spec.type;
      source.frequency.setValueAtTime(spec.from, begin);
      source.frequency.exponentialRampToValueAtTime(spec.to, end);
      source.connect(gain);
    }
    source.start(begin);
    source.stop(end + 0.02);
  }

  function play(effect) {
    const voices = EFFECTS[effect];
    if (!voices || muted()) return;
    const ctx = audio();
    if (!ctx) return;
    if (ctx.state === "suspended") ctx.resume();
    const start = ctx.currentTime + 0.01;
    for (const spec of voices) voice(ctx, spec, start);
  }

  return { play, muted, setMuted };
}
