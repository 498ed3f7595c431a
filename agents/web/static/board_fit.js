// Scales a board picture to the room beside the panel (up to twice its own
// size, so small print stays readable), keeping its shape. On a narrow screen
// a board that would shrink below READABLE is shown at its own size in a
// sideways-scrolling box instead; a tap switches between the two.
const READABLE = 0.6;

function fitBoard(element, reserveBelow) {
  "use strict";
  const box = element.parentElement;
  const naturalWidth = element.naturalWidth || element.width;
  const naturalHeight = element.naturalHeight || element.height;
  if (!naturalWidth || !naturalHeight) return;
  const wide = window.innerWidth > 760;
  let room = box.clientWidth - 2;
  if (wide) { // beside the panel: what the row leaves once the panel has its width
    const row = element.closest("main"), style = getComputedStyle(row);
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
  const choice = box.dataset.zoom || (!wide && scale < READABLE ? "actual" : "fit");
  box.classList.toggle("actual-size", choice === "actual");
  const width = choice === "actual" ? naturalWidth : Math.floor(naturalWidth * Math.min(scale, 2));
  element.style.width = `${width}px`;
}

function watchBoard(element, reserveBelow) {
  "use strict";
  const fit = () => fitBoard(element, reserveBelow);
  window.addEventListener("resize", fit);
  element.addEventListener("click", () => {
    const box = element.parentElement;
    box.dataset.zoom = box.classList.contains("actual-size") ? "fit" : "actual";
    fit();
  });
  return fit;
}
