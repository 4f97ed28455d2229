// @ts-check
// The benchmark page's probe, loaded before any client: it timestamps
// every WebSocket frame the page sends and receives (performance.now(),
// milliseconds since navigation start) and every key pressed, so the
// benchmark can split a step into trigger → request sent → answer
// received → shown. Both clients use the browser's WebSocket, so both are
// seen the same way; a received frame is stamped by a listener added
// before the client's own handler, i.e. when JavaScript first has it.
(() => {
  /** @type {BenchProbe} */
  const probe = { frames: [], keys: [], marks: {} };
  window.benchProbe = probe;
  const Native = window.WebSocket;
  class ProbedWebSocket extends Native {
    /** @param {ConstructorParameters<typeof WebSocket>} args */
    constructor(...args) {
      super(...args);
      probe.marks.socket ??= performance.now();
      this.addEventListener('message', (e) => probe.frames.push({ t: performance.now(), out: false, data: e.data }));
    }
    /** @param {string} data JSON-RPC, as both clients send it */
    send(data) {
      probe.frames.push({ t: performance.now(), out: true, data });
      return super.send(data);
    }
  }
  window.WebSocket = ProbedWebSocket;
  window.addEventListener('keydown', (e) => probe.keys.push({ t: e.timeStamp, key: e.key }), true);
  // Tasks that held the main thread 50 ms or more: a frame that arrives
  // meanwhile waits for them before any listener sees it.
  /** @type {NonNullable<BenchProbe['longTasks']>} */
  const longTasks = probe.longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longTasks.push({ start: e.startTime, end: e.startTime + e.duration });
  }).observe({ type: 'longtask', buffered: true });
})();
