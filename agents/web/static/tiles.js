// Draws the positions of a tile-encoded game (see tile_codec.py) on a canvas.
function TileBoard(canvas, pictures, ready) {
  "use strict";
  const T = pictures.tile, stride = pictures.stride, sheetCols = pictures.sheetColumns;
  const perSheet = sheetCols * pictures.sheetRows;
  const frames = pictures.frames;
  const width = Math.max(...frames.map((f) => f.size[0]));
  const height = Math.max(...frames.map((f) => f.size[1]));
  const cols = Math.ceil(width / T), rows = Math.ceil(height / T), cells = cols * rows;
  const EVERY = 32; // a full tile map is kept every EVERY positions
  const ctx = canvas.getContext("2d");
  canvas.width = width;
  canvas.height = height;
  const cellOf = (code) => Math.floor(code / stride) * cols + (code % stride);

  const checkpoints = [];
  const running = new Int32Array(cells).fill(-1);
  // apply one position's changes: [code step, tile, ...], codes relative to the one before
  const apply = (map, changes) => {
    for (let i = 0, code = 0; i < changes.length; i += 2) {
      code += changes[i];
      map[cellOf(code)] = changes[i + 1];
    }
  };
  frames.forEach((frame, k) => {
    apply(running, frame.changes);
    if (k % EVERY === 0) checkpoints.push(running.slice());
  });

  const shown = new Int32Array(cells).fill(-2);
  const sheets = pictures.sheets.map((src) => {
    const image = new Image();
    image.src = src;
    return image;
  });

  function mapAt(k) {
    const base = Math.floor(k / EVERY);
    const map = checkpoints[base].slice();
    for (let j = base * EVERY + 1; j <= k; j++) apply(map, frames[j].changes);
    return map;
  }

  function draw(k) {
    const map = mapAt(k);
    for (let cell = 0; cell < cells; cell++) {
      const t = map[cell];
      if (t === shown[cell]) continue;
      const x = (cell % cols) * T, y = Math.floor(cell / cols) * T;
      if (t < 0) {
        ctx.clearRect(x, y, T, T);
      } else {
        const within = t % perSheet;
        const sx = (within % sheetCols) * T, sy = Math.floor(within / sheetCols) * T;
        ctx.drawImage(sheets[Math.floor(t / perSheet)], sx, sy, T, T, x, y, T, T);
      }
      shown[cell] = t;
    }
  }

  Promise.all(sheets.map((image) => image.decode())).then(ready, ready);
  return { draw };
}
