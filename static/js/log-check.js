// A player's own check of the turn log, in the browser. The server signs the head of the
// players' chain (the entries everyone reads) with its Ed25519 key; this page keeps the
// last head it saw for the campaign (localStorage) and, on each update, asks the server
// for the new signed head and the hashes of the shared entries since the kept one. It
// recomputes the chain from the kept root through those hashes (SHA-256, as the server
// does: root = sha256(root + hash)) and checks the signature with WebCrypto, so neither
// the server's word nor this page's can pass off a rewritten or cut log as the old one.
(() => {
  const box = document.getElementById("log-check");
  const said = document.getElementById("log-check-result");
  if (!box || !said) return;
  const storeKey = `referee-log-head:${box.dataset.campaign}`;
  const encoder = new TextEncoder();

  const say = (text, kind) => {
    said.textContent = text;
    said.className = kind || "muted";
    said.dataset.state = kind || "info";
  };
  const bytes = (hex) => Uint8Array.from(hex.match(/../g) || [], (pair) => parseInt(pair, 16));
  const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
  const clock = (iso) => new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  const kept = () => {
    try {
      return JSON.parse(localStorage.getItem(storeKey) || "null");
    } catch (error) {
      return null;
    }
  };
  const keep = (head) => localStorage.setItem(storeKey, JSON.stringify(head));

  if (!window.crypto || !crypto.subtle) {
    say("This browser cannot check the server's signatures here (it needs a secure connection).", "warn");
    return;
  }

  const signedBy = async (publicKey, statement, signature) => {
    const key = await crypto.subtle.importKey("raw", bytes(publicKey), { name: "Ed25519" }, false, ["verify"]);
    return crypto.subtle.verify({ name: "Ed25519" }, key, bytes(signature), encoder.encode(statement));
  };

  const rootThrough = async (root, hashes) => {
    for (const entryHash of hashes) {
      root = hex(await crypto.subtle.digest("SHA-256", encoder.encode(root + entryHash)));
    }
    return root;
  };

  let busy = false;
  let queued = false;

  const check = async () => {
    if (busy) {
      queued = true;
      return;
    }
    busy = true;
    try {
      await checkOnce();
    } catch (error) {
      say(`Your browser could not check the log just now (${error.message || error}).`, "warn");
    } finally {
      busy = false;
      if (queued) {
        queued = false;
        check();
      }
    }
  };

  const checkOnce = async () => {
    const before = kept();
    const since = before && before.key === box.dataset.publicKey ? before.length : 0;
    const response = await fetch(`${box.dataset.url}?since=${since}`, {
      credentials: "same-origin",
      cache: "no-store",
    });
    const proof = await response.json();
    if (response.status === 409 && before) {
      say(
        `Warning: the log you saw at ${clock(before.seenAt)} is not part of this one: it had ` +
          `${before.length} shared entries, this one has ${proof.length}. The log was cut or rewritten since.`,
        "bad",
      );
      return;
    }
    if (!response.ok) throw new Error(proof.error || `the server answered ${response.status}`);
    if (proof.public_key !== box.dataset.publicKey) {
      say("Warning: the server signed this log with a key other than the one this page shows.", "bad");
      return;
    }
    if (!(await signedBy(proof.public_key, proof.statement, proof.signature))) {
      say("Warning: the log's head is not signed by the server's key. Do not trust this log.", "bad");
      return;
    }
    const head = JSON.parse(proof.statement);
    if (head.kind !== "referee-public-head/1" || head.campaign !== box.dataset.campaign) {
      say("Warning: the signed head is not this campaign's.", "bad");
      return;
    }
    const now = new Date().toISOString();
    const fresh = { key: proof.public_key, length: head.length, root: head.root, seenAt: now };
    if (!before || before.key !== proof.public_key) {
      keep(fresh);
      const noun = head.length === 1 ? "entry" : "entries";
      say(
        before
          ? "The server signs with a new key since you last looked; your browser keeps this log's head from now on."
          : `Your browser keeps this log's signed head (${head.length} shared ${noun}) to check every later one extends it.`,
        before ? "warn" : "ok",
      );
      return;
    }
    if (proof.hashes === null) {
      keep(fresh);
      say("The log grew too much since you last looked to check it here; your browser keeps its new head.", "warn");
      return;
    }
    const root = await rootThrough(before.root, proof.hashes);
    if (head.length !== before.length + proof.hashes.length || root !== head.root) {
      say(
        `Warning: the log you saw at ${clock(before.seenAt)} is not part of this one: ` +
          "it was rewritten or cut since. Keep the export you have.",
        "bad",
      );
      return;
    }
    const grew = proof.hashes.length;
    if (grew) keep(fresh);
    const more = grew ? ` with ${grew} new shared ${grew === 1 ? "entry" : "entries"}` : "";
    say(`The log you saw at ${clock(before.seenAt)} is still part of this one${more} (checked in your browser).`, "ok");
    if (!grew) return;
    // The next check starts from this head; it is said as the time it was first seen.
  };

  check();
  let last = 0;
  document.addEventListener("htmx:afterSettle", (event) => {
    if (!event.target || event.target.id !== "status-panel") return;
    const now = Date.now();
    if (now - last < 2000) return;
    last = now;
    check();
  });
  setInterval(check, 30000);
})();
