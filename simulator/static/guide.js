// The first run on /sim: "do the next step for me" and a short guided start (the tour).
//
// The next-step button asks the simulator to make one legal step by hand on the virtual table
// and shows, in words, what was done. The tour points at the page's real parts one after the
// other; it shows on the first visit (remembered in localStorage), "Show the tour" brings it
// back, Esc closes it, and `?tour=0` starts without it (`?tour=1` shows it again). It sits in
// the page's flow, never over the table, so it blocks no drag and no test.
(() => {
  "use strict";
  const SEEN = "tabletop.sim.tour";
  const $ = (id) => document.getElementById(id);
  const fill = (text, args) => String(text).replace(/\{(\w+)\}/g, (whole, name) =>
    args && name in args ? String(args[name]) : whole);
  // the shared /static/i18n.js translates when the page loads it; else the English msgid
  const t = (text, args) => (typeof window.t === "function" ? window.t(text, args) : fill(text, args));
  // a sentence from the server: {template, args}, where an arg may itself be a sentence
  const say = (sentence) => t(sentence.template, Object.fromEntries(Object.entries(sentence.args || {})
    .map(([name, value]) => [name, typeof value === "object" && value !== null ? say(value) : value])));

  // -- do the next step for me ----------------------------------------------------------------
  let answer = null;  // the last answer's sentences, said again when the language changes

  function tell() {
    if (answer) $("nextSaid").textContent = answer.map(say).join(" ");
  }

  async function nextStep() {
    const button = $("nextStep"), said = $("nextSaid");
    button.disabled = true;
    answer = null;
    said.textContent = t("Making the next step…");
    try {
      const response = await fetch(`/sim/api/next?lang=${encodeURIComponent(pageLanguage())}`, {method: "POST"});
      const data = await response.json();
      said.dataset.kind = response.ok ? data.kind : "refused";
      if (response.ok) { answer = data.sentences; tell(); }
      else said.textContent = typeof data.detail === "string" ? data.detail : t("The step could not be made.");
    } catch (error) {
      said.dataset.kind = "refused";
      said.textContent = t("The simulator did not answer.");
    } finally {
      button.disabled = false;
      if (typeof window.refresh === "function") window.refresh();
    }
  }

  // -- the tour ------------------------------------------------------------------------------
  const STEPS = [
    {target: "tableTop", title: () => t("The table"),
     text: () => t("This is the virtual table. Every place on it is a spot a reader under the board can see.")},
    {target: "box", title: () => t("Drag a piece"),
     text: () => t("Drag a piece from the box onto a place on the table, from place to place, or back into the box.")},
    {target: "board", title: () => t("Watch the LEDs"),
     text: () => t("The glow under a place is its LED: it lights where the next step can go and shows what is wrong.")},
    {target: "buttons", title: () => t("Press confirm"),
     text: () => t("When a step moves no piece, or the table could mean several moves, press confirm.")},
    {target: "nextStep", title: () => t("Let the table show you"),
     text: () => t("Do not know the rules yet? Do the next step for me makes one legal step by hand and says what it did.")},
  ];
  let at = -1;
  let opener = null;

  function panel() {
    let box = $("tour");
    if (box) return box;
    box = document.createElement("section");
    box.id = "tour";
    box.setAttribute("role", "region");
    box.setAttribute("aria-labelledby", "tourTitle");
    box.innerHTML = `<p id="tourCount"></p><h2 id="tourTitle" tabindex="-1"></h2><p id="tourText" aria-live="polite"></p>
      <div><button type="button" id="tourBack"></button> <button type="button" id="tourNext"></button>
      <button type="button" id="tourClose"></button></div>`;
    const layout = $("layout");
    layout.parentNode.insertBefore(box, layout);
    $("tourBack").addEventListener("click", () => show(at - 1));
    $("tourNext").addEventListener("click", () => (at + 1 < STEPS.length ? show(at + 1) : close()));
    $("tourClose").addEventListener("click", close);
    return box;
  }

  function mark(index) {
    document.querySelectorAll(".tour-target").forEach((element) => element.classList.remove("tour-target"));
    const step = STEPS[index];
    const target = step && $(step.target);
    if (target) {
      target.classList.add("tour-target");
      target.scrollIntoView({block: "nearest", inline: "nearest"});
    }
  }

  function show(index, focus = true) {
    at = Math.max(0, Math.min(index, STEPS.length - 1));
    const box = panel();
    box.hidden = false;
    box.dataset.step = String(at + 1);
    $("tourCount").textContent = t("Step {number} of {count}", {number: at + 1, count: STEPS.length});
    $("tourTitle").textContent = STEPS[at].title();
    $("tourText").textContent = STEPS[at].text();
    $("tourBack").textContent = t("Back");
    $("tourBack").disabled = at === 0;
    $("tourNext").textContent = at + 1 < STEPS.length ? t("Next") : t("Done");
    $("tourClose").textContent = t("Close the tour");
    mark(at);
    if (focus) $("tourTitle").focus({preventScroll: true});
  }

  function open() {
    opener = document.activeElement;
    show(0);
  }

  function close() {
    const box = $("tour");
    if (!box || box.hidden) return;
    box.hidden = true;
    at = -1;
    mark(-1);
    try { localStorage.setItem(SEEN, "closed"); } catch (error) { /* private mode: ask again next time */ }
    const back = opener && document.contains(opener) && opener !== document.body ? opener : $("showTour");
    if (back) back.focus();
  }

  function wanted() {
    const asked = new URLSearchParams(location.search).get("tour");
    if (asked === "0") return false;
    if (asked === "1") return true;
    try { return localStorage.getItem(SEEN) === null; } catch (error) { return false; }
  }

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && at >= 0) { event.preventDefault(); close(); }
  });

  async function start() {
    $("nextStep").addEventListener("click", nextStep);
    $("showTour").addEventListener("click", (event) => { event.preventDefault(); open(); });
    try {
      const table = await (await fetch("/sim/api/table")).json();
      $("nextStep").hidden = !table.next_step;
      if (!table.next_step) STEPS.pop();  // the last step points at the button
    } catch (error) { /* the page's own refresh reports a dead simulator */ }
    if (window.I18n) {
      window.I18n.onLanguage(() => { tell(); if (at >= 0) show(at, false); });
      await window.I18n.ready;  // open the tour in the reader's language
    }
    if (wanted()) open();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
