// The web chat: sends a question, reads the answer as server-sent events, shows the agent's steps,
// the answer as it is released, its sources, and 👍/👎 and Copy. The only HTML inserted as HTML is the
// answer the server rendered from markdown with raw HTML escaped; everything else is set as text.
"use strict";
(function () {
  const KEY = "rulebook.conversation";
  const transcript = document.getElementById("transcript");
  const form = document.getElementById("ask");
  const input = document.getElementById("question");
  const send = document.getElementById("send");

  function newId() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }
  let conversation = localStorage.getItem(KEY) || newId();
  localStorage.setItem(KEY, conversation);
  const storeKey = () => "rulebook.transcript." + conversation;
  const stored = () => JSON.parse(localStorage.getItem(storeKey()) || "[]");
  function keep(question, final) {
    const turns = stored();
    turns.push({ question, final });
    localStorage.setItem(storeKey(), JSON.stringify(turns.slice(-50)));
  }

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function safeUrl(url) {
    return typeof url === "string" && (url.startsWith("/") || /^https?:\/\//.test(url)) ? url : null;
  }
  async function post(path, body) {
    return fetch(path, { method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  }

  function addTurn(question) {
    document.getElementById("hint")?.remove();
    const turn = el("section", "turn");
    turn.appendChild(el("div", "question", question));
    const reply = el("div", "reply");
    const steps = el("ul", "steps");
    const answer = el("div", "answer");
    reply.append(steps, answer);
    turn.appendChild(reply);
    transcript.appendChild(turn);
    turn.scrollIntoView({ block: "end" });
    return { reply, steps, answer };
  }

  function showFinal(parts, final) {
    parts.reply.classList.add("done");
    if (final.outcome !== "answered") parts.reply.classList.add(final.outcome);
    parts.answer.innerHTML = final.html; // rendered by the server, raw HTML escaped
    if (final.sources && final.sources.length) {
      const list = el("div", "sources");
      for (const source of final.sources) {
        const card = el("a", "source");
        const href = safeUrl(source.url);
        if (href) card.href = href;
        card.target = "_blank";
        card.rel = "noopener noreferrer";
        card.dataset.n = String(source.n);
        const thumbnail = safeUrl(source.thumbnail);
        if (thumbnail) {
          const image = el("img", "thumbnail");
          image.src = thumbnail;
          image.alt = "The cited passage on page " + source.page;
          image.loading = "lazy";
          card.appendChild(image);
        }
        card.appendChild(el("div", "title", "[" + source.n + "] " + source.title));
        card.appendChild(el("div", "where",
          (source.section ? "Section " + source.section + " · " : "") + "page " + source.page));
        if (source.quote) card.appendChild(el("div", "quote", "“" + source.quote + "”"));
        if (source.translation_note) card.appendChild(el("div", "note", source.translation_note));
        list.appendChild(card);
      }
      parts.reply.appendChild(list);
    }
    if (final.message_id) parts.reply.appendChild(actions(final));
  }

  function actions(final) {
    const bar = el("div", "actions");
    const up = el("button", "feedback", "👍");
    const down = el("button", "feedback", "👎");
    const copy = el("button", "copy", "Copy");
    const status = el("span", "status");
    up.type = down.type = copy.type = "button";
    up.setAttribute("aria-label", "Helpful");
    down.setAttribute("aria-label", "Not helpful");
    for (const [button, value, other] of [[up, "positive", down], [down, "negative", up]]) {
      button.setAttribute("aria-pressed", "false");
      button.addEventListener("click", async () => {
        const retract = button.getAttribute("aria-pressed") === "true";
        const response = await post("/chat/api/feedback",
          { message_id: final.message_id, conversation, value, retracted: retract });
        if (response.ok) {
          button.setAttribute("aria-pressed", retract ? "false" : "true");
          other.setAttribute("aria-pressed", "false");
          status.textContent = retract ? "" : "Thanks for the feedback.";
        }
      });
    }
    copy.addEventListener("click", async () => {
      let copied = false;
      try { await navigator.clipboard.writeText(final.copy_text); copied = true; } catch (error) {
        const area = el("textarea");
        area.value = final.copy_text;
        document.body.appendChild(area);
        area.select();
        copied = document.execCommand("copy");
        area.remove();
      }
      await post("/chat/api/copy", { message_id: final.message_id, conversation });
      status.textContent = copied ? "Copied with its sources." : "Could not reach the clipboard.";
    });
    bar.append(up, down, copy, status);
    return bar;
  }

  async function ask(question) {
    const parts = addTurn(question);
    send.disabled = true;
    let final = null;
    try {
      const response = await post("/chat/api/ask", { question, conversation });
      if (!response.ok || !response.body) throw new Error("the server answered " + response.status);
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let event = "message", data = "";
          for (const line of block.split("\n")) {
            if (line.startsWith("event: ")) event = line.slice(7);
            else if (line.startsWith("data: ")) data += line.slice(6);
          }
          const payload = data ? JSON.parse(data) : {};
          if (event === "status") parts.steps.appendChild(el("li", "", payload.text));
          else if (event === "token") parts.answer.innerHTML = payload.html; // server-rendered, escaped
          else if (event === "final") { final = payload; showFinal(parts, payload); }
          else if (event === "failure") parts.answer.textContent = payload.text;
        }
      }
    } catch (error) {
      parts.answer.textContent = "The answer could not be fetched (" + error.message + "). Please try again.";
    } finally {
      send.disabled = false;
      parts.reply.classList.add("done");
    }
    if (final) keep(question, final);
  }

  for (const turn of stored()) showFinal(addTurn(turn.question), turn.final);

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const question = input.value.trim();
    if (!question || send.disabled) return;
    input.value = "";
    ask(question);
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey) { event.preventDefault(); form.requestSubmit(); }
  });
  document.getElementById("new-conversation").addEventListener("click", () => {
    localStorage.removeItem(storeKey());
    conversation = newId();
    localStorage.setItem(KEY, conversation);
    transcript.replaceChildren();
  });
})();
