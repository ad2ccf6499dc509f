// Small page behaviour; htmx does the rest.
document.addEventListener("htmx:responseError", (event) => {
  const status = event.detail.xhr.status;
  const text = event.detail.xhr.responseText || "";
  const message = status === 403 ? "You are not allowed to do that." : `The server answered ${status}.`;
  const box = document.createElement("div");
  box.className = "messages";
  box.setAttribute("role", "alert");
  box.innerHTML = `<li class="error"></li>`;
  box.firstChild.textContent = text.length < 300 && !text.includes("<") ? text : message;
  document.querySelector("main").prepend(box);
  box.setAttribute("tabindex", "-1");
  box.scrollIntoView({ block: "center" });
  box.focus({ preventScroll: true });
  setTimeout(() => box.remove(), 8000);
});

// How often pages ask the server what changed, as healthchecks' adaptive polling does:
// every second while someone is at the page, every ten seconds once nobody has touched it
// for a minute, never while the tab is hidden (and at once when it is shown again).
window.refereePoll = (() => {
  const IDLE_AFTER_MS = 60000;
  const IDLE_EVERY_MS = 10000;
  let lastActive = Date.now();
  const lastAsked = {};
  const active = () => {
    lastActive = Date.now();
  };
  for (const name of ["pointerdown", "pointermove", "keydown", "scroll", "touchstart", "focus"]) {
    window.addEventListener(name, active, { passive: true, capture: true });
  }
  return {
    active, // a change seen counts as activity: a busy table keeps the quick pace
    due(what) {
      if (document.hidden) return false;
      const now = Date.now();
      if (now - lastActive >= IDLE_AFTER_MS && now - (lastAsked[what] || 0) < IDLE_EVERY_MS) return false;
      lastAsked[what] = now;
      return true;
    },
  };
})();

// Players' live status: server-sent events bring the new status panel (or say "changed",
// and the panel re-fetches what this reader may see). While the stream is open the panel does not poll;
// where there is no stream (a plain WSGI server answers 204, or the connection drops)
// the panel's poll carries on (at ``refereePoll``'s pace).
(() => {
  const panel = document.getElementById("status-panel");
  if (!panel) return;
  const refresh = () => {
    const current = document.getElementById("status-panel");
    if (current) htmx.trigger(current, "live-changed");
  };
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && !window.refereeLive) refresh(); // back to the tab: ask at once
  });
  if (!panel.dataset.liveUrl || !window.EventSource) return;
  const source = new EventSource(panel.dataset.liveUrl);
  source.addEventListener("open", () => {
    window.refereeLive = true;
    refresh(); // whatever changed between the page's rendering and the stream's opening
  });
  source.addEventListener("changed", refresh);
  source.addEventListener("panel", (event) => {
    window.refereePoll.active();
    const current = document.getElementById("status-panel");
    // The stream sends the panel as it first opens (its first few records); a reader who
    // chose to see all of them fetches theirs instead.
    if (current && current.dataset.showAll) refresh();
    else if (current) htmx.swap(current, event.data, { swapStyle: "outerHTML" });
  });
  source.addEventListener("error", () => {
    window.refereeLive = false;
  });
})();

// A page restored from the browser's back/forward cache shows what it showed then: reload it.
window.addEventListener("pageshow", (event) => {
  if (event.persisted) window.location.reload();
});

// GM pages refresh their panels when the campaign changes, as the players' page does.
// Where the live-view server runs, its stream says "changed" after each change and the
// page fires "campaign-changed" at once; while the stream is open there is no poll. Without
// it (a plain WSGI server answers 204, or the connection drops) the status poll says the
// campaign's version (at ``refereePoll``'s pace), and a new one fires "campaign-changed";
// maps and other panels follow that event instead of polling themselves.
document.addEventListener("DOMContentLoaded", () => {
  const watch = document.querySelector("[data-campaign-watch]");
  if (!watch) return;
  // The version the page was drawn at: a change made before the first check still counts.
  let version = watch.dataset.version || null;
  let live = false;
  let reopened = false;
  let pending = null;
  const changed = () => {
    // Changes in a burst (a resolution and the End Phase it starts) refresh once.
    clearTimeout(pending);
    window.refereePoll.active();
    pending = setTimeout(() => htmx.trigger(document.body, "campaign-changed"), 150);
  };
  const check = async (asked) => {
    if (live || (asked !== "now" && !window.refereePoll.due("watch")) || document.hidden) return;
    try {
      const url = `${watch.dataset.campaignWatch}?watch=1&v=${encodeURIComponent(version || "")}`;
      const response = await fetch(url, { credentials: "same-origin" });
      const now = response.headers.get("X-Campaign-Version");
      if (now && version !== null && now !== version) changed();
      if (now) version = now;
    } catch (error) {
      // offline for a moment: the next check tries again
    }
  };
  if (watch.dataset.liveUrl && window.EventSource) {
    const source = new EventSource(watch.dataset.liveUrl);
    source.addEventListener("open", () => {
      if (reopened) changed(); // whatever changed while the stream was down
      live = true;
      watch.dataset.live = "open";
    });
    source.addEventListener("changed", changed);
    source.addEventListener("error", () => {
      reopened = live || reopened;
      live = false;
      // the poll goes on from the version the page last knew: a change made while the
      // stream was down (or that a plain WSGI server's 204 hid) still refreshes the page
      watch.dataset.live = "closed";
    });
  }
  check("now");
  setInterval(check, 1000);
  document.addEventListener("visibilitychange", () => check("now")); // back to the tab: ask at once
});

// A refusal is never out of sight: after a refused submit (a 422 form shown again, a 409,
// or any error answer) the first message is scrolled into view and focused, so it is seen
// and, being an alert, announced.
function showRefusal(root) {
  const first = (root || document).querySelector(
    '[role="alert"].error, [data-testid="form-error"], .messages .error, .field.has-error .error'
  );
  if (!first) return;
  if (!first.hasAttribute("tabindex")) first.setAttribute("tabindex", "-1");
  first.scrollIntoView({ block: "center" });
  first.focus({ preventScroll: true });
}
document.addEventListener("htmx:afterSettle", (event) => {
  const status = event.detail.xhr ? event.detail.xhr.status : 200;
  if (status >= 400) showRefusal(document.contains(event.detail.elt) ? event.detail.elt : document);
});
document.addEventListener("DOMContentLoaded", () => {
  if (document.querySelector(".field.has-error, [data-testid='form-error']")) showRefusal(document);
});

// Record menus (Roll…, Advance clock…): a button that opens its panel (aria-expanded).
// Escape closes it and puts the focus back on its button; a click outside closes it, as
// does opening another; ArrowDown/ArrowUp (and Home/End) move between its links.
// A record's Roll… button is a link to the record's roll page (data-menu-src): its panel is
// empty until it first opens, then holds the menu fetched from that page (HTMX asks for the
// menu alone); a key pressed while it loads acts once it has come.
// Listeners sit on the document, so rows that HTMX swaps in work without more wiring.
(() => {
  const openButtons = () => document.querySelectorAll('[data-menu-button][aria-expanded="true"]');
  const panelOf = (button) => document.getElementById(button.getAttribute("aria-controls"));
  const itemsOf = (button) => {
    const panel = panelOf(button);
    return panel ? Array.from(panel.querySelectorAll("a[href], button, input, select")) : [];
  };
  const loading = new WeakMap(); // button -> the promise of its menu
  const load = (button) => {
    const panel = panelOf(button);
    if (!panel || !button.hasAttribute("data-menu-src") || panel.dataset.loaded) return null;
    if (loading.has(button)) return loading.get(button);
    panel.setAttribute("aria-busy", "true");
    panel.innerHTML = '<p class="muted" data-menu-loading>Loading…</p>';
    const failed = () => {
      const link = document.createElement("a");
      link.href = button.getAttribute("href");
      link.textContent = "Open the list of what to roll";
      panel.replaceChildren(link);
    };
    const done = htmx
      .ajax("GET", button.getAttribute("href"), { target: panel, swap: "innerHTML" })
      .then(() => {
        if (panel.querySelector("[data-menu-loading]")) failed(); // refused or unreachable
        else panel.dataset.loaded = "true";
      }, failed)
      .finally(() => {
        panel.removeAttribute("aria-busy");
        loading.delete(button);
      });
    loading.set(button, done);
    return done;
  };
  const setOpen = (button, open) => {
    const panel = panelOf(button);
    button.setAttribute("aria-expanded", open ? "true" : "false");
    if (panel) panel.hidden = !open;
    return open ? load(button) : null;
  };
  const closeAll = (except) => {
    openButtons().forEach((button) => {
      if (button !== except) setOpen(button, false);
    });
    // The older <details class="menu"> menus close the same way.
    document.querySelectorAll("details.menu[open]").forEach((details) => {
      if (!except || !details.contains(except)) details.removeAttribute("open");
    });
  };
  const move = (button, key) => {
    const items = itemsOf(button);
    if (!items.length) return;
    const at = items.indexOf(document.activeElement);
    let next;
    if (key === "Home") next = 0;
    else if (key === "End") next = items.length - 1;
    else if (key === "ArrowDown") next = at < 0 ? 0 : (at + 1) % items.length;
    else next = at < 0 ? items.length - 1 : (at - 1 + items.length) % items.length;
    items[next].focus();
  };
  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-menu-button]");
    if (button) {
      event.preventDefault(); // a Roll… link opens its menu here instead of its page
      const open = button.getAttribute("aria-expanded") !== "true";
      closeAll(button);
      setOpen(button, open);
      return;
    }
    // A click outside every open menu closes them; a click inside one leaves it be.
    const inside = event.target.closest("[data-menu], details.menu");
    if (!inside) closeAll(null);
    else openButtons().forEach((b) => { if (!b.closest("[data-menu]").contains(event.target)) setOpen(b, false); });
  });
  document.addEventListener("keydown", (event) => {
    const holder = document.activeElement && document.activeElement.closest("[data-menu]");
    const button = holder ? holder.querySelector("[data-menu-button]") : null;
    if (event.key === "Escape") {
      const details = document.activeElement && document.activeElement.closest("details.menu[open]");
      if (details) {
        details.removeAttribute("open");
        details.querySelector("summary").focus();
        return;
      }
      if (button && button.getAttribute("aria-expanded") === "true") {
        event.preventDefault();
        setOpen(button, false);
        button.focus();
      } else if (openButtons().length) {
        closeAll(null);
      }
      return;
    }
    // A Roll… link is a button to the keyboard too: Space opens it as Enter does.
    if (event.key === " " && document.activeElement === button && button.tagName === "A") {
      event.preventDefault();
      button.click();
      return;
    }
    if (!button || !["ArrowDown", "ArrowUp", "Home", "End"].includes(event.key)) return;
    if (document.activeElement.matches("input, select")) return; // their own arrow keys
    let pending = null;
    if (button.getAttribute("aria-expanded") !== "true") {
      closeAll(button);
      pending = setOpen(button, true);
    } else {
      pending = load(button);
    }
    if (!itemsOf(button).length && !pending) return;
    event.preventDefault();
    if (pending && !itemsOf(button).filter((item) => !item.closest("[aria-busy]")).length) {
      pending.then(() => { if (button.getAttribute("aria-expanded") === "true") move(button, event.key); });
    } else {
      move(button, event.key);
    }
  });
})();

// Notice: a new entry the reader can see is highlighted and announced (a toast in an
// aria-live region, and a short tone when the reader turned sound on; off by default, made
// by WebAudio, nothing fetched). Entries newer than the reader's last visit are marked,
// with a line where the last visit ended. A reader may follow one record: the log then
// shows only the entries about it. All of it is remembered in this browser only.
(() => {
  const controls = document.getElementById("notice-controls");
  if (!controls) return;
  const key = `referee-notice-${controls.dataset.campaign}`;
  const store = (() => {
    try {
      return window.localStorage;
    } catch (error) {
      return null;
    }
  })();
  const get = (name) => (store ? store.getItem(`${key}-${name}`) : null);
  const set = (name, value) => store && store.setItem(`${key}-${name}`, value);
  const lastVisit = Number(get("seen") || 0);
  const sound = document.getElementById("notice-sound");
  const follow = document.getElementById("notice-follow");
  const toasts = document.getElementById("notice-toasts");
  sound.checked = get("sound") === "on";
  // The records one can follow: the shared ships and units the status panel shows.
  const followable = () => {
    if (!follow) return;
    for (const card of document.querySelectorAll(".ship-status[id], .unit-status[id]")) {
      const code = card.id.replace(/^status-(ship|unit)-/, "");
      if (follow.querySelector(`option[value="${CSS.escape(code)}"]`)) continue;
      const heading = card.querySelector("h2");
      const option = document.createElement("option");
      option.value = code;
      option.textContent = heading && heading.firstChild ? heading.firstChild.textContent.trim() : code;
      follow.append(option);
    }
  };
  followable();
  if (follow) follow.value = get("follow") || "";
  let shown = null; // the highest entry number on screen so far (null before the first look)
  const blindSeen = new Set();
  let audio = null;

  const tone = () => {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.frequency.value = 660;
      gain.gain.setValueAtTime(0.08, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start();
      oscillator.stop(audio.currentTime + 0.25);
    } catch (error) {
      // no sound here: the toast still tells
    }
  };
  const announce = (card) => {
    card.classList.add("fresh");
    const heading = card.querySelector("h2");
    const toast = document.createElement("div");
    toast.className = "toast";
    toast.dataset.testid = "toast";
    toast.textContent = `New in the log: ${heading ? heading.textContent.trim() : "an entry"}`;
    toasts.append(toast);
    setTimeout(() => toast.remove(), 6000);
  };
  const cards = () => [...document.querySelectorAll("#log-panel [data-entry-number], #log-panel [data-blind-at]")];
  const numberOf = (card) => Number(card.dataset.entryNumber || 0);

  const look = () => {
    followable();
    const followed = follow ? follow.value : "";
    const all = cards();
    let highest = 0;
    const fresh = [];
    for (const card of all) {
      const number = numberOf(card);
      highest = Math.max(highest, number);
      card.hidden = Boolean(followed) && !(card.dataset.records || "").split(" ").includes(followed);
      if (lastVisit && number > lastVisit) card.classList.add("since-last-visit");
      const blind = card.dataset.blindAt;
      const isNew = blind ? !blindSeen.has(blind) : number > (shown ?? Infinity);
      if (blind) blindSeen.add(blind);
      if (isNew && shown !== null && !card.hidden) fresh.push(card);
    }
    document.querySelectorAll(".last-visit-marker").forEach((marker) => marker.remove());
    const firstOld = all.find((card) => numberOf(card) && numberOf(card) <= lastVisit);
    if (lastVisit && firstOld && firstOld !== all[0]) {
      const marker = document.createElement("p");
      marker.className = "last-visit-marker";
      marker.dataset.testid = "since-last-visit";
      marker.textContent = "Above: new since your last visit";
      firstOld.before(marker);
    }
    fresh.forEach(announce);
    if (fresh.length && sound.checked) tone();
    shown = Math.max(shown || 0, highest);
    if (highest > Number(get("seen") || 0)) set("seen", String(highest));
  };

  sound.addEventListener("change", () => {
    set("sound", sound.checked ? "on" : "off");
    if (sound.checked) tone(); // a first tone, so the reader hears what it sounds like
  });
  if (follow) follow.addEventListener("change", () => {
    set("follow", follow.value);
    look();
  });
  let pending = false;
  new MutationObserver(() => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      look();
    });
  }).observe(document.querySelector("main") || document.body, { childList: true, subtree: true });
  look();
})();

// On a phone the dashboard's record tables are cards (see referee.css): each cell shows its
// column's heading before its value. Cells the template labels itself keep their label.
function labelRecordCells(root) {
  root.querySelectorAll(".records table").forEach((table) => {
    const heads = Array.from(table.querySelectorAll("thead th")).map((th) => th.textContent.trim());
    table.querySelectorAll("tbody tr").forEach((row) => {
      Array.from(row.children).forEach((cell, i) => {
        if (i === 0 || cell.hasAttribute("data-label") || cell.hasAttribute("colspan")) return;
        if (cell.classList.contains("row-actions") || !heads[i]) return;
        cell.setAttribute("data-label", heads[i]);
      });
    });
  });
}
document.addEventListener("DOMContentLoaded", () => labelRecordCells(document));
document.addEventListener("htmx:afterSettle", () => labelRecordCells(document));

// The log keeps what a reader opened: a <details data-keep-open="..."> the reader opened
// or closed stays so when a live refresh swaps the panel it sits in (the players' status
// panel, the log panel, a result card). The reader's choices are kept by key for the page's
// life; new content is brought in line as it lands, before it is painted.
(() => {
  const chosen = new Map();
  document.addEventListener("click", (event) => {
    const summary = event.target.closest("summary");
    const details = summary && summary.parentElement;
    if (!details || !details.matches("details[data-keep-open]")) return;
    chosen.set(details.dataset.keepOpen, !details.open); // the click is about to toggle it
  });
  const restore = (root) => {
    if (!chosen.size || !root.querySelectorAll) return;
    const found = root.matches && root.matches("details[data-keep-open]") ? [root] : [];
    for (const details of [...found, ...root.querySelectorAll("details[data-keep-open]")]) {
      const open = chosen.get(details.dataset.keepOpen);
      if (open !== undefined && details.open !== open) details.open = open;
    }
  };
  new MutationObserver((changes) => {
    for (const change of changes) for (const node of change.addedNodes) restore(node);
  }).observe(document.documentElement, { childList: true, subtree: true });
})();

// Copy buttons (the invite link): the field named by data-copy goes to the clipboard, and
// the button says so; a read-only link field selects itself when it takes the focus.
document.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-copy]");
  if (!button) return;
  const field = document.getElementById(button.dataset.copy);
  if (!field) return;
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
  } catch {
    document.execCommand("copy");  // an older browser, or a page not served over HTTPS
  }
  button.textContent = "Copied";
  setTimeout(() => { button.textContent = "Copy"; }, 2000);
});
document.addEventListener("focusin", (event) => {
  if (event.target.matches("[data-select-on-focus]")) event.target.select();
});

// On a phone a procedure page opens with its log folded: the form and result come first.
if (window.matchMedia("(max-width: 40rem)").matches) {
  document.querySelectorAll("details[data-fold-on-phone]").forEach((fold) => { fold.open = false; });
}

// Forms that refresh themselves from the server (choosing a record fills in what it says):
// the refresh is sent without the page's CSRF token or request key (``hx-params`` on the
// element, so neither lands in a URL), and what the user changes while it is on its way
// is kept: each field whose value differs, when the answer comes, from what was sent is
// put back into the new form.
(() => {
  const fieldKey = (field) =>
    field.type === "checkbox" || field.type === "radio" ? `${field.name}\u0000${field.value}` : field.name;
  const valueOf = (field) => {
    if (field.type === "checkbox" || field.type === "radio") return field.checked;
    if (field.multiple) return Array.from(field.selectedOptions, (o) => o.value).join("\u0000");
    return field.value;
  };
  const setValue = (field, value) => {
    if (field.type === "checkbox" || field.type === "radio") field.checked = value;
    else if (field.multiple) {
      const chosen = new Set(value.split("\u0000"));
      for (const option of field.options) option.selected = chosen.has(option.value);
    } else field.value = value;
  };
  // A form's fields, or those of the card that holds a form (a record's form slot).
  const fieldsOf = (root) => root.elements || root.querySelectorAll("input, select, textarea");
  const snapshot = (form) => {
    const values = new Map();
    for (const field of fieldsOf(form)) {
      if (field.name && field.type !== "hidden" && !field.disabled) values.set(fieldKey(field), valueOf(field));
    }
    return values;
  };
  const refreshed = (event) => {
    const source = event.detail.elt && event.detail.elt.closest("[data-form-refresh]");
    return source && document.getElementById(source.dataset.formRefresh);
  };
  document.addEventListener("htmx:beforeRequest", (event) => {
    const form = refreshed(event);
    if (form) event.detail.xhr.refereeSent = { id: form.id, values: snapshot(form) };
  });
  document.addEventListener("htmx:beforeSwap", (event) => {
    const sent = event.detail.xhr && event.detail.xhr.refereeSent;
    const form = sent && document.getElementById(sent.id);
    if (!form) return;
    const changed = new Map();
    for (const [key, value] of snapshot(form)) {
      if (sent.values.has(key) && sent.values.get(key) !== value) changed.set(key, value);
    }
    event.detail.xhr.refereeChanged = changed;
  });
  document.addEventListener("htmx:afterSwap", (event) => {
    const sent = event.detail.xhr && event.detail.xhr.refereeSent;
    const changed = event.detail.xhr && event.detail.xhr.refereeChanged;
    const form = sent && document.getElementById(sent.id);
    if (!form || !changed || !changed.size) return;
    for (const field of fieldsOf(form)) {
      if (field.name && changed.has(fieldKey(field))) setValue(field, changed.get(fieldKey(field)));
    }
  });
})();

// What would otherwise be inline (the Content-Security-Policy allows no inline script or
// style attribute, and no eval, so no hx-trigger filters either):
(() => {
  // Odds bars: each fill as wide as its outcome's chance.
  const bars = (root) => {
    for (const fill of root.querySelectorAll(".fill[data-percent]")) fill.style.width = `${fill.dataset.percent}%`;
  };
  // A panel that polls, at the pace ``refereePoll`` keeps (never in a hidden tab, slower
  // when nobody is at the page), unless the page says it need not (window[flag]).
  setInterval(() => {
    for (const panel of document.querySelectorAll("[data-poll-unless]")) {
      if (!window[panel.dataset.pollUnless] && window.refereePoll.due(panel.id || "panel")) {
        htmx.trigger(panel, "referee-poll");
      }
    }
  }, 1000);
  // A panel that follows the page's push event (a map), unless it is busy (window[flag]).
  document.body.addEventListener("campaign-changed", () => {
    for (const panel of document.querySelectorAll("[data-changed-unless]")) {
      if (!window[panel.dataset.changedUnless]) htmx.trigger(panel, "referee-changed");
    }
  });
  // A panel that refreshes when the campaign changes, unless the reader has a part open.
  document.body.addEventListener("campaign-changed", () => {
    for (const panel of document.querySelectorAll("[data-changed-unless-open]")) {
      if (!panel.querySelector("details[open]")) htmx.trigger(panel, "referee-changed");
    }
  });
  document.addEventListener("click", (event) => {
    if (event.target.closest("[data-print]")) window.print();
  });
  document.addEventListener("DOMContentLoaded", () => bars(document));
  document.addEventListener("htmx:afterSettle", (event) => bars(event.target));
  bars(document);
})();
