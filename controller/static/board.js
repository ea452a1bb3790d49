// board.js: draws a game's table as SVG, with every piece as its picture (games/<game>/data/art.toml,
// served as JSON at /api/art and /sim/api/art). Used by the status page and the simulator page.
//
//   const layout = Board.layout(sites, art);           // once per game: sites placed, none overlapping
//   Board.draw(svg, layout, art, {board, leds, marks}); // every update
//   Board.icon(art, piece, px)                          // a piece as a small inline <svg> (box, legal moves)
//   Board.zoomable(svg, controls, onTap)                // once: zoom and pan (buttons, pinch), a tap names the site
//
// Sites keep the game's coordinates, moved by the art file's offsets; each site gets a square cell
// no larger than half the distance to its nearest neighbour (measured as max(|dx|, |dy|)), so no
// two cells can overlap whatever the game's spacing. Marks differ by outline, badge symbol and
// title text, never by colour alone.
"use strict";
(function () {
  const translate = (text, args) => (typeof window.t === "function" ? window.t(text, args) : text);
  const esc = (text) => String(text ?? "").replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
  const PILE_JOIN = " / ";
  const FACE_DOWN = "face-down";
  // mark -> [badge symbol, title text]; the outline style is in the page's CSS (.mark-<name>).
  const t = translate;
  // The symbols follow the LED legend's shapes (ring, square, two dots, cross, star, diamond).
  const MARKS = {
    wrong: ["✕", () => t("wrong piece here")],
    blind: ["?", () => t("not seen: its hub is down")],
    advice: ["◆", () => t("the suggested move")],
    legal: ["○", () => t("a legal place now")],
    choice: ["⁚", () => t("one of the moves the table could mean")],
    active: ["■", () => t("the step under way")],
    score: ["★", () => t("scored now")],
    highlight: ["●", () => t("the place of the move you point at")],
  };
  // mark -> outline dashes and width, as shares of a cell's half size (shape, not only colour)
  const OUTLINE = {wrong: [[0.3, 0.15], 0.16], blind: [[0.08, 0.08], 0.1], advice: [[], 0.2],
                   legal: [[0.14, 0.1], 0.12], choice: [[0.04, 0.1], 0.14], active: [[], 0.16],
                   score: [[], 0.2], highlight: [[], 0.24]};
  const FILL_RATIO = 0.46;  // a cell's half size, as a share of the distance to its nearest site

  function median(values) {
    const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
    return sorted.length ? sorted[Math.floor(sorted.length / 2)] : 1;
  }

  /** Sites placed for drawing: [{id, label, x, y, h (half size), arrow, showLabel, ruler}]. */
  function layout(sites, art) {
    const placed = sites.map((site) => {
      const how = (art && art.sites && art.sites[site.id]) || {};
      return {id: site.id, label: site.label || "", x: site.x + (how.dx || 0), y: site.y + (how.dy || 0),
              want: how.size ? how.size / 2 : Infinity, arrow: how.arrow ?? null,
              showLabel: !!how.label, words: typeof how.label === "string" ? how.label : "", ruler: !!how.ruler,
              name: how.name || site.label || site.id, round: !!how.round};
    });
    const nearest = placed.map((a) => {
      let best = Infinity;
      for (const b of placed) {
        if (a === b) continue;
        const d = Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y));
        if (d < best) best = d;
      }
      return best;
    });
    const typical = median(nearest.filter((d) => d > 0 && isFinite(d))) || 1;
    placed.forEach((site, i) => {
      const room = isFinite(nearest[i]) && nearest[i] > 0 ? nearest[i] : typical;
      site.h = Math.min(FILL_RATIO * room, FILL_RATIO * typical * 1.6, site.want);
    });
    return {sites: placed, unit: typical};
  }

  // -- pictures ----------------------------------------------------------------------------------
  function outline(art) { return `fill="${esc(art.fill)}" stroke="${esc(art.stroke)}"`; }

  function shapePath(art, cx, cy, r) {
    const sw = (r * 0.09).toFixed(3);
    const o = `${outline(art)} stroke-width="${sw}"`;
    switch (art.shape) {
      case "disc": return `<circle cx="${cx}" cy="${cy}" r="${r * 0.9}" ${o}/>`;
      case "token": return `<circle cx="${cx}" cy="${cy}" r="${r * 0.8}" ${o}/><circle cx="${cx}" cy="${cy}" r="${r * 0.62}" fill="none" stroke="${esc(art.stroke)}" stroke-width="${sw / 2}"/>`;
      case "stone": return `<ellipse cx="${cx}" cy="${cy}" rx="${r * 0.85}" ry="${r * 0.6}" ${o}/>`;
      case "card": return `<rect x="${cx - r * 0.66}" y="${cy - r * 0.92}" width="${r * 1.32}" height="${r * 1.84}" rx="${r * 0.14}" ${o}/>`;
      case "tile": return `<rect x="${cx - r * 0.88}" y="${cy - r * 0.88}" width="${r * 1.76}" height="${r * 1.76}" rx="${r * 0.2}" ${o}/>`;
      case "hexagon": {
        const pts = [0, 1, 2, 3, 4, 5].map((k) => `${cx + r * 0.92 * Math.cos(Math.PI / 3 * k)},${cy + r * 0.92 * Math.sin(Math.PI / 3 * k)}`);
        return `<polygon points="${pts.join(" ")}" ${o}/>`;
      }
      case "triangle": return `<polygon points="${cx},${cy - r * 0.9} ${cx + r * 0.9},${cy + r * 0.7} ${cx - r * 0.9},${cy + r * 0.7}" ${o}/>`;
      case "rhombus": {
        // sharp corners left and right, wide corners top and bottom; corners counterclockwise
        const L = [cx - r * 0.95, cy], T = [cx, cy - r * 0.6], R = [cx + r * 0.95, cy], B = [cx, cy + r * 0.6];
        const c = art.corners && art.corners.length === 4 ? art.corners : null;
        if (!c) return `<polygon points="${L} ${T} ${R} ${B}" ${o}/>`;
        const C = [cx, cy];
        // each corner's colour fills the wedge at that corner: left (sharp a), bottom (wide), right (sharp b), top (wide)
        const mid = (p, q) => [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2];
        const wedge = (corner, prev, next, colour) => `<polygon points="${corner} ${mid(corner, next)} ${C} ${mid(corner, prev)}" fill="${esc(colour)}"/>`;
        return wedge(L, T, B, c[0]) + wedge(B, L, R, c[1]) + wedge(R, B, T, c[2]) + wedge(T, R, L, c[3])
          + `<polygon points="${L} ${T} ${R} ${B}" fill="none" stroke="${esc(art.stroke)}" stroke-width="${sw}"/>`;
      }
      case "figure": {
        // a meeple: head and a body with arms and legs
        const s = r * 0.95;
        return `<path d="M ${cx - s * 0.2} ${cy - s * 0.55} a ${s * 0.28} ${s * 0.28} 0 1 1 ${s * 0.4} 0
          L ${cx + s * 0.8} ${cy - s * 0.25} L ${cx + s * 0.55} ${cy + s * 0.05} L ${cx + s * 0.65} ${cy + s * 0.9}
          L ${cx + s * 0.12} ${cy + s * 0.9} L ${cx} ${cy + s * 0.45} L ${cx - s * 0.12} ${cy + s * 0.9}
          L ${cx - s * 0.65} ${cy + s * 0.9} L ${cx - s * 0.55} ${cy + s * 0.05} L ${cx - s * 0.8} ${cy - s * 0.25} Z" ${o} stroke-linejoin="round"/>`;
      }
      case "canoe": return `<path d="M ${cx - r * 0.95} ${cy - r * 0.15} Q ${cx} ${cy + r * 0.95} ${cx + r * 0.95} ${cy - r * 0.15} Q ${cx} ${cy + r * 0.15} ${cx - r * 0.95} ${cy - r * 0.15} Z" ${o}/>`;
      case "cube": return `<polygon points="${cx - r * 0.7},${cy - r * 0.3} ${cx},${cy - r * 0.75} ${cx + r * 0.7},${cy - r * 0.3} ${cx + r * 0.7},${cy + r * 0.55} ${cx},${cy + r * 0.9} ${cx - r * 0.7},${cy + r * 0.55}" ${o}/>
        <polyline points="${cx - r * 0.7},${cy - r * 0.3} ${cx},${cy + r * 0.1} ${cx + r * 0.7},${cy - r * 0.3} M ${cx},${cy + r * 0.1}" fill="none" stroke="${esc(art.stroke)}" stroke-width="${sw / 2}"/>
        <line x1="${cx}" y1="${cy + r * 0.1}" x2="${cx}" y2="${cy + r * 0.9}" stroke="${esc(art.stroke)}" stroke-width="${sw / 2}"/>`;
      case "marker": return `<path d="M ${cx - r * 0.6} ${cy + r * 0.85} L ${cx - r * 0.2} ${cy - r * 0.2} A ${r * 0.35} ${r * 0.35} 0 1 1 ${cx + r * 0.2} ${cy - r * 0.2} L ${cx + r * 0.6} ${cy + r * 0.85} Z" ${o}/>`;
      default: return `<circle cx="${cx}" cy="${cy}" r="${r * 0.85}" fill="#ddd" stroke="#555" stroke-width="${sw}"/>`;
    }
  }

  // The glyph's colour, unless it is too close to the fill to read (white on yellow): then the
  // darker or lighter of two inks, whichever stands out more (WCAG contrast ratio).
  function luminance(hex) {
    const h = hex.replace("#", "");
    const full = h.length === 3 ? h.split("").map((c) => c + c).join("") : h;
    const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16) / 255)
      .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }
  function contrast(a, b) {
    const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  }
  function readable(text, fill) {
    if (!/^#[0-9a-f]{3,6}$/i.test(text) || !/^#[0-9a-f]{3,6}$/i.test(fill) || contrast(text, fill) >= 3) return text;
    return contrast("#1b1b1b", fill) >= contrast("#ffffff", fill) ? "#1b1b1b" : "#ffffff";
  }

  function unknownArt(piece) {
    return {shape: "token", fill: "#dddddd", stroke: "#555555", glyph: "?", symbol: "", text: "#1b1b1b", name: piece, corners: []};
  }

  function artOf(art, piece) { return (art && art.pieces && art.pieces[piece]) || unknownArt(piece); }

  /** One piece drawn in a circle of radius r around (cx, cy), with its name as a tooltip. */
  function picture(art, piece, cx, cy, r) {
    const a = artOf(art, piece);
    const halo = `stroke="${esc(a.fill)}" stroke-width="${(r * 0.12).toFixed(3)}" paint-order="stroke"`;
    const textColour = esc(readable(a.text || "#1b1b1b", a.fill));
    let words = "";
    const dy = a.shape === "figure" ? r * 0.25 : 0;
    if (a.symbol && a.glyph) {
      words = `<text class="symbol" x="${cx}" y="${cy - r * 0.32 + dy}" font-size="${r * 0.62}" fill="${textColour}" ${halo}>${esc(a.symbol)}</text>
        <text class="glyph" x="${cx}" y="${cy + r * 0.38 + dy}" font-size="${r * 0.62}" fill="${textColour}" ${halo}>${esc(a.glyph)}</text>`;
    } else if (a.symbol || a.glyph) {
      const text = a.symbol || a.glyph;
      const size = r * (a.shape === "rhombus" ? 0.42 : text.length > 2 ? 0.62 : text.length > 1 ? 0.78 : 0.95);
      words = `<text class="glyph" x="${cx}" y="${cy + dy}" font-size="${size}" fill="${textColour}" ${halo}>${esc(text)}</text>`;
    }
    return `<g class="picture" data-piece="${esc(piece)}"><title>${esc(a.name)}</title>${shapePath(a, cx, cy, r)}${words}</g>`;
  }

  /** A site's pieces: one picture, or a pile drawn as a stack (bottom first, each a little higher). */
  function stack(art, value, cx, cy, r) {
    const pieces = value.split(PILE_JOIN);
    if (pieces.length === 1) return picture(art, value, cx, cy, r);
    const size = r * 0.62;
    const rise = Math.min(size * 0.5, (2 * r - 2 * size) / (pieces.length - 1));
    const bottom = cy + r - size;
    const drawn = pieces.map((piece, i) => picture(art, piece, cx, bottom - i * rise, size)).join("");
    const names = pieces.map((piece) => artOf(art, piece).name).join(", ");
    return `<g class="pile" data-count="${pieces.length}"><title>${esc(names)}</title>${drawn}
      <text class="count" x="${cx - r * 0.72}" y="${cy - r * 0.7}" font-size="${r * 0.42}">${pieces.length}</text></g>`;
  }

  function arrow(site) {
    if (site.arrow === null || site.arrow === undefined) return "";
    const h = site.h;
    return `<g class="arrow" transform="translate(${site.x} ${site.y}) rotate(${site.arrow})" stroke-width="${h * 0.12}">
      <path d="M ${-h * 0.7} 0 L ${h * 0.45} 0 M ${h * 0.15} ${-h * 0.35} L ${h * 0.7} 0 L ${h * 0.15} ${h * 0.35}"/></g>`;
  }

  function shortLabel(label) { return label.split(": ")[0]; }

  /** Coordinates beside the grid sites that ask for a ruler: row numbers left, column numbers on top. */
  function rulers(layoutSites) {
    const groups = {};
    const reach = {x: Infinity, y: Infinity};  // how far left and up the labels go
    for (const site of layoutSites) {
      if (!site.ruler) continue;
      const parts = site.id.split(":");
      const numbers = parts.slice(-2).every((p) => /^\d+$/.test(p)) ? 2 : /^\d+$/.test(parts[parts.length - 1]) ? 1 : 0;
      if (!numbers) continue;
      const key = parts.slice(0, parts.length - numbers).join(":");
      (groups[key] = groups[key] || []).push({site, row: numbers === 2 ? parts[parts.length - 2] : parts[parts.length - 1],
                                               col: numbers === 2 ? parts[parts.length - 1] : null});
    }
    const out = [];
    for (const members of Object.values(groups)) {
      const mine = new Set(members.map((m) => m.site));
      const others = layoutSites.filter((s) => !mine.has(s));
      const size = Math.min(...members.map((m) => m.site.h)) * 0.7;
      let left = Math.min(...members.map((m) => m.site.x - m.site.h));
      let top = Math.min(...members.map((m) => m.site.y - m.site.h));
      const ys = members.map((m) => m.site.y), xs = members.map((m) => m.site.x);
      // move the ruler out past any other site standing in its strip (Topiary's visitor spots)
      for (const s of others)
        if (s.x + s.h > left - size * 1.6 && s.x - s.h < left && s.y + s.h > Math.min(...ys) && s.y - s.h < Math.max(...ys))
          left = Math.min(left, s.x - s.h);
      for (const s of others)
        if (s.y + s.h > top - size * 1.4 && s.y - s.h < top && s.x + s.h > Math.min(...xs) && s.x - s.h < Math.max(...xs))
          top = Math.min(top, s.y - s.h);
      const rows = {}, cols = {};
      for (const m of members) {
        (rows[m.row] = rows[m.row] || []).push(m.site.y);
        if (m.col !== null) (cols[m.col] = cols[m.col] || []).push(m.site.x);
      }
      const mean = (list) => list.reduce((a, b) => a + b, 0) / list.length;
      reach.x = Math.min(reach.x, left - size * 2.2);
      reach.y = Math.min(reach.y, top - size * 1.4);
      for (const [row, ys] of Object.entries(rows))
        out.push(`<text x="${left - size * 0.5}" y="${mean(ys)}" font-size="${size}" text-anchor="end">${esc(row)}</text>`);
      for (const [col, xs] of Object.entries(cols))
        out.push(`<text x="${mean(xs)}" y="${top - size * 0.55}" font-size="${size}">${esc(col)}</text>`);
    }
    return {svg: out.length ? `<g class="ruler" aria-hidden="true">${out.join("")}</g>` : "", reach};
  }

  /** Draw the table: {board: site -> value, leds: site -> css colour, marks: site -> mark name,
   *  ledRoles: site -> the LED's name (data-led; default the colour)}. A site's pieces are a
   *  ``g.piece`` (data-site, data-piece) that a page may make draggable. */
  function draw(svg, placed, art, state) {
    const board = state.board || {}, leds = state.leds || {}, marks = state.marks || {};
    const ledRoles = state.ledRoles || leds;
    const sites = placed.sites;
    if (!sites.length) { svg.innerHTML = ""; return; }
    const pad = placed.unit * 0.25;
    const ruler = rulers(sites);
    const minX = Math.min(...sites.map((s) => s.x - s.h), ruler.reach.x) - pad;
    const minY = Math.min(...sites.map((s) => s.y - s.h), ruler.reach.y) - pad;
    const maxX = Math.max(...sites.map((s) => s.x + s.h)) + pad, maxY = Math.max(...sites.map((s) => s.y + s.h)) + pad;
    svg._full = [minX, minY, maxX - minX, maxY - minY];
    showZoom(svg);
    const parts = sites.map((site) => {
      const h = site.h, x0 = site.x - h, y0 = site.y - h;
      const value = board[site.id];
      const mark = marks[site.id];
      const inset = ((OUTLINE[mark] || [[], 0.06])[1] * h) / 2;
      const led = leds[site.id];
      const glow = led ? `<rect class="glow" x="${x0 + h * 0.04}" y="${y0 + h * 0.04}" width="${h * 1.92}" height="${h * 1.92}" rx="${h * 0.3}" fill="${esc(led)}"/>` : "";
      const words = site.showLabel ? site.words || shortLabel(site.label) : "";  // /api/art translates it
      const fit = words.length * 0.55 * h * 0.34 > h * 1.8 ? ` textLength="${h * 1.8}" lengthAdjust="spacingAndGlyphs"` : "";
      const label = words
        ? `<text class="label" x="${site.x}" y="${site.y + h * 0.78}" font-size="${h * 0.34}"${fit}>${esc(words)}</text>` : "";
      const badge = mark && MARKS[mark]
        ? `<g class="badge"><circle cx="${x0 + h * 1.7}" cy="${y0 + h * 0.3}" r="${h * 0.28}" stroke-width="${(h * 0.05).toFixed(3)}"/><text x="${x0 + h * 1.7}" y="${y0 + h * 0.31}" font-size="${h * 0.38}">${MARKS[mark][0]}</text></g>` : "";
      const title = [site.name, value ? names(art, value) : "", mark && MARKS[mark] ? MARKS[mark][1]() : ""].filter(Boolean).join(" · ");
      const shown = mark === "blind" || !value ? ""
        : `<g class="piece" data-site="${esc(site.id)}" data-piece="${esc(value)}">${stack(art, value, site.x, site.y - (site.showLabel ? h * 0.12 : 0), h * (site.showLabel ? 0.72 : 0.86))}</g>`;
      const role = ledRoles[site.id];
      return `<g class="site${mark ? ` ${esc(mark)} mark-${esc(mark)}` : ""}" data-site="${esc(site.id)}" data-piece="${esc(value || "")}"${mark ? ` data-mark="${esc(mark)}"` : ""}${role ? ` data-led="${esc(role)}"` : ""}>
        <title>${esc(title)}</title><rect class="cell" x="${x0 + inset}" y="${y0 + inset}" width="${2 * (h - inset)}" height="${2 * (h - inset)}" rx="${site.round ? h - inset : h * 0.18}" ${outlineOf(mark, h)}/>
        ${glow}${arrow(site)}${label}${shown}${badge}</g>`;
    });
    svg.innerHTML = parts.join("") + ruler.svg;
  }

  // Zoom and pan. draw() keeps the whole board's viewBox in svg._full; a zoomable board shows a
  // part of it, svg._zoom = {scale, cx, cy} (the centre in board units), kept over redraws. On a
  // phone the big boards' sites are too small to see or tap (WCAG 2.2 asks 24 × 24 px).
  const ZOOM_STEP = 1.6, ZOOM_MAX = 12, PAN_SHARE = 0.4;
  const clamp = (v, lo, hi) => Math.min(Math.max(v, lo), Math.max(lo, hi));

  function showZoom(svg) {
    const full = svg._full, z = svg._zoom;
    if (!full) return;
    const [x, y, w, h] = full;
    const zoomed = Boolean(z && z.scale > 1);
    if (!zoomed) {
      svg.setAttribute("viewBox", `${x} ${y} ${w} ${h}`);
    } else {
      const vw = w / z.scale, vh = h / z.scale;
      z.cx = clamp(z.cx, x + vw / 2, x + w - vw / 2);
      z.cy = clamp(z.cy, y + vh / 2, y + h - vh / 2);
      svg.setAttribute("viewBox", `${z.cx - vw / 2} ${z.cy - vh / 2} ${vw} ${vh}`);
    }
    if (svg._onZoom) {  // only a zoomable board: the simulator page drags its pieces
      // whole, the page scrolls under a finger; zoomed, a finger pans the board, two zoom it
      svg.style.touchAction = zoomed ? "none" : "pan-x pan-y";
      svg._onZoom(zoomed ? z.scale : 1);
    }
  }

  function zoomBy(svg, factor, cx, cy) {
    const [x, y, w, h] = svg._full || [0, 0, 1, 1];
    const z = svg._zoom || (svg._zoom = {scale: 1, cx: x + w / 2, cy: y + h / 2});
    const scale = clamp(z.scale * factor, 1, ZOOM_MAX);
    if (cx !== undefined) {  // keep the point under the fingers where it is
      z.cx = cx - (cx - z.cx) * (z.scale / scale);
      z.cy = cy - (cy - z.cy) * (z.scale / scale);
    }
    z.scale = scale;
    showZoom(svg);
  }

  function panBy(svg, dx, dy) {  // in shares of the part shown
    const z = svg._zoom, full = svg._full;
    if (!z || !full || z.scale <= 1) return;
    z.cx += dx * full[2] / z.scale;
    z.cy += dy * full[3] / z.scale;
    showZoom(svg);
  }

  function boardPoint(svg, clientX, clientY) {
    const matrix = svg.getScreenCTM();
    if (!matrix) return [0, 0];
    const point = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
    return [point.x, point.y];
  }

  /** Zoom and pan for ``svg``: the buttons inside ``controls`` (data-zoom = in, out, fit,
   * left, right, up, down), two fingers to pinch, one to drag once zoomed; a tap on a site
   * calls ``onTap(site element)``. */
  function zoomable(svg, controls, onTap) {
    svg._onZoom = (scale) => {
      if (controls) controls.dataset.zoomed = scale > 1 ? "yes" : "no";
    };
    const pans = {left: [-PAN_SHARE, 0], right: [PAN_SHARE, 0], up: [0, -PAN_SHARE], down: [0, PAN_SHARE]};
    if (controls) {
      controls.addEventListener("click", (event) => {
        const button = event.target.closest("button[data-zoom]");
        if (!button) return;
        const what = button.dataset.zoom;
        if (what === "in") zoomBy(svg, ZOOM_STEP);
        else if (what === "out") zoomBy(svg, 1 / ZOOM_STEP);
        else if (what === "fit") { svg._zoom = null; showZoom(svg); }
        else if (pans[what]) panBy(svg, ...pans[what]);
      });
    }
    const pointers = new Map();
    let pinch = null, moved = false;
    svg.addEventListener("pointerdown", (event) => {
      pointers.set(event.pointerId, [event.clientX, event.clientY]);
      moved = false;
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        pinch = {distance: Math.hypot(a[0] - b[0], a[1] - b[1]) || 1};
      }
    });
    svg.addEventListener("pointermove", (event) => {
      const last = pointers.get(event.pointerId);
      if (!last) return;
      const now = [event.clientX, event.clientY];
      if (pointers.size === 2 && pinch) {
        pointers.set(event.pointerId, now);
        const [a, b] = [...pointers.values()];
        const distance = Math.hypot(a[0] - b[0], a[1] - b[1]) || 1;
        const [cx, cy] = boardPoint(svg, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
        zoomBy(svg, distance / pinch.distance, cx, cy);
        pinch.distance = distance;
        moved = true;
        return;
      }
      const zoomed = svg._zoom && svg._zoom.scale > 1;
      if (zoomed && pointers.size === 1) {
        const [x0, y0] = boardPoint(svg, last[0], last[1]), [x1, y1] = boardPoint(svg, now[0], now[1]);
        if (Math.hypot(now[0] - last[0], now[1] - last[1]) > 2 || moved) {
          svg._zoom.cx -= x1 - x0;
          svg._zoom.cy -= y1 - y0;
          showZoom(svg);
          moved = true;
        }
      }
      pointers.set(event.pointerId, now);
    });
    const up = (event) => {
      const tapped = pointers.size === 1 && !moved && event.type === "pointerup";
      pointers.delete(event.pointerId);
      if (pointers.size < 2) pinch = null;
      if (tapped && onTap) {
        const site = event.target.closest && event.target.closest(".site");
        if (site) onTap(site);
      }
    };
    svg.addEventListener("pointerup", up);
    svg.addEventListener("pointercancel", up);
  }

  function outlineOf(mark, h) {
    const [dashes, width] = OUTLINE[mark] || [[], 0.06];
    const dash = dashes.length ? ` stroke-dasharray="${dashes.map((d) => (d * h).toFixed(3)).join(" ")}"` : "";
    return `stroke-width="${(width * h).toFixed(3)}"${dash}`;
  }

  function names(art, value) { return value.split(PILE_JOIN).map((piece) => artOf(art, piece).name).join(", "); }

  /** A piece (or pile) as a small inline SVG, ``px`` pixels high, for lists and the box. */
  function icon(art, value, px) {
    return `<svg class="piece-icon" width="${px}" height="${px}" style="width:${px}px;height:${px}px;flex:none" viewBox="-1 -1 2 2" role="img" aria-label="${esc(names(art, value))}">${stack(art, value, 0, 0, 1)}</svg>`;
  }

  // The board's own look, added once to any page that loads this script; pages may override it.
  const STYLE = `
    svg .site .cell { fill: #efe7d6; stroke: #8d7b5a; }
    svg .site .glow { opacity: 0.55; }
    svg .site text, svg .ruler text, svg .picture text { text-anchor: middle; dominant-baseline: central;
      font-family: "DejaVu Sans", system-ui, sans-serif; pointer-events: none; }
    svg .site .label { fill: #5d5442; }
    svg .ruler text { fill: #6b604c; }
    svg .pile .count { fill: #1b1b1b; font-weight: 700; }
    svg .arrow path { fill: none; stroke: #8d7b5a; stroke-linecap: round; stroke-linejoin: round; }
    svg .badge circle { fill: #fff; stroke: #1b1b1b; }
    svg .badge text { font-weight: 700; fill: #1b1b1b; }
    svg .mark-wrong .cell { stroke: #d50000; }
    svg .mark-wrong .badge circle { fill: #d50000; stroke: #fff; } svg .mark-wrong .badge text { fill: #fff; }
    svg .mark-blind .cell { fill: #9e9e9e; stroke: #424242; }
    svg .mark-advice .cell { stroke: #6a00c8; }
    svg .mark-advice .badge circle { fill: #6a00c8; } svg .mark-advice .badge text { fill: #fff; }
    svg .mark-legal .cell, svg .mark-choice .cell { stroke: #1b7a2c; }
    svg .mark-active .cell { stroke: #0b57d0; }
    svg .mark-score .cell { stroke: #b8860b; }
    svg .mark-score .badge circle { fill: #f2c230; }
    svg .mark-highlight .cell { stroke: #0039cb; fill: #dbe6ff; }
    svg .mark-highlight .badge circle { fill: #0039cb; } svg .mark-highlight .badge text { fill: #fff; }
    .piece-icon { vertical-align: middle; overflow: visible; }
    .piece-icon text { text-anchor: middle; dominant-baseline: central; font-family: "DejaVu Sans", system-ui, sans-serif; }
  `;
  if (typeof document !== "undefined" && !document.getElementById("board-style")) {
    const style = document.createElement("style");
    style.id = "board-style";
    style.textContent = STYLE;
    document.head.appendChild(style);
  }

  window.Board = {layout, draw, icon, picture, stack, names, artOf, zoomable, MARKS, FACE_DOWN};
})();
