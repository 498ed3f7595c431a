// Scales a board picture to the room beside the panel (up to twice its own
// size, so small print stays readable), keeping its shape. A tap on it
// switches to its actual pixel size and back (useful on a phone).
function fitBoard(element, reserveBelow) {
  "use strict";
  const box = element.parentElement;
  const naturalWidth = element.naturalWidth || element.width;
  const naturalHeight = element.naturalHeight || element.height;
  if (!naturalWidth || !naturalHeight) return;
  if (box.classList.contains("actual-size")) {
    element.style.width = `${naturalWidth}px`;
    return;
  }
  const wide = window.innerWidth > 760;
  let room = box.clientWidth - 2;
  if (wide) { // beside the panel: what the row leaves once the panel has its width
    const row = box.parentElement, style = getComputedStyle(row);
    const panel = row.querySelector(".panel");
    room = row.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 2;
    if (panel) room -= panel.offsetWidth + (parseFloat(style.columnGap) || 0);
  }
  let scale = room / naturalWidth;
  if (wide) {
    const top = element.getBoundingClientRect().top + window.scrollY;
    const tall = window.innerHeight - top - reserveBelow;
    scale = Math.min(scale, Math.max(tall, 200) / naturalHeight, 2);
  }
  element.style.width = `${Math.floor(naturalWidth * Math.min(scale, 2))}px`;
}

function watchBoard(element, reserveBelow) {
  "use strict";
  const fit = () => fitBoard(element, reserveBelow);
  window.addEventListener("resize", fit);
  element.addEventListener("click", () => {
    element.parentElement.classList.toggle("actual-size");
    fit();
  });
  return fit;
}
