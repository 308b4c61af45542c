// The pincite chat page: plain DOM, no framework, no build step.
// It calls the same HTTP API as any client: GET /corpora, POST /ask (server-sent events),
// GET /provisions/{id} and /provisions/{id}/references. Conversations are kept in this browser (localStorage), one per thread.
"use strict";

const LANGUAGES = {
  bg: "Български", cs: "Čeština", da: "Dansk", de: "Deutsch", el: "Ελληνικά", en: "English",
  es: "Español", et: "Eesti", fi: "Suomi", fr: "Français", ga: "Gaeilge", hr: "Hrvatski",
  hu: "Magyar", it: "Italiano", lt: "Lietuvių", lv: "Latviešu", mt: "Malti", nl: "Nederlands",
  pl: "Polski", pt: "Português", ro: "Română", sk: "Slovenčina", sl: "Slovenščina", sv: "Svenska",
  th: "ไทย",
};

const EXAMPLES = {
  "gdpr/en": [
    "How quickly must a personal data breach be notified to the supervisory authority?",
    "What does consent of the data subject mean?",
    "Within what time must a controller respond to a data subject's request?",
    "What is the maximum fine for infringing the basic principles for processing?",
  ],
  "gdpr/it": [
    "Entro quanto tempo deve essere notificata una violazione dei dati personali?",
    "Che cosa si intende per consenso dell'interessato?",
  ],
  "ai-act/en": [
    "What does 'AI system' mean?",
    "What information must the instructions for use of a high-risk AI system contain?",
    "What are the obligations of deployers of high-risk AI systems?",
    "What transparency obligations apply to providers of AI systems that interact with natural persons?",
  ],
  "ai-act/it": [
    "Quali sono gli obblighi dei deployer dei sistemi di IA ad alto rischio?",
    "Quali sistemi di identificazione biometrica sono ad alto rischio?",
  ],
};

const state = {
  corpora: [],
  corpus: "gdpr",
  lang: "en",
  thread: null,   // id of the conversation on screen, null before its first answer
  turns: [],      // [{question, document}] of the conversation on screen
  busy: false,
  provisionCache: new Map(),
  referenceCache: new Map(),
  panelId: null,
  citationText: new Map(),  // label → text the citation denotes (to highlight a point)
};

const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// -- the API ---------------------------------------------------------------------------------

function headers(extra) {
  const key = sessionStorage.getItem("pincite.key");
  return Object.assign({}, extra || {}, key ? { Authorization: `Bearer ${key}` } : {});
}

async function api(path) {
  const response = await fetch(path, { headers: headers({ Accept: "application/json" }) });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw apiError(response, body);
  return body;
}

function apiError(response, body) {
  if (response.status === 401) $("keybar").hidden = false;
  const error = new Error(body.message || `the server answered ${response.status}`);
  error.code = body.error || String(response.status);
  return error;
}

async function* events(response) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length) yield { event, data: JSON.parse(data.join("\n")) };
    }
  }
}

// -- corpus and language -----------------------------------------------------------------------

function currentCorpus() {
  return state.corpora.find((c) => c.name === state.corpus) || state.corpora[0];
}

function builtLang(corpus, lang) {
  return (corpus?.built || []).find((b) => b.lang === lang) || null;
}

// Whether a question in this corpus language is answered without preparing anything first.
function ready(corpus, lang) {
  const built = builtLang(corpus, lang);
  return Boolean(built && built.indexed !== false);
}

// The languages this server can answer in: offline, those its mirror holds and those built here.
function languagesOf(corpus) {
  return corpus ? (corpus.available || corpus.langs) : ["en"];
}

// `lang` when the corpus can be had in it here, else its default language, else its first.
function pickLang(corpus, lang) {
  const langs = languagesOf(corpus);
  if (langs.includes(lang)) return lang;
  return langs.includes(corpus?.default_lang) ? corpus.default_lang : (langs[0] || "");
}

function renderPicker() {
  const corpusSelect = $("corpus");
  const offered = state.corpora.filter((c) => languagesOf(c).length || c.name === state.corpus);
  corpusSelect.replaceChildren(...offered.map((c) =>
    el("option", { value: c.name, selected: c.name === state.corpus }, shortTitle(c))));
  const corpus = currentCorpus();
  const langs = languagesOf(corpus);
  state.lang = pickLang(corpus, state.lang);
  const built = new Set((corpus?.built || []).map((b) => b.lang));
  const ordered = [...langs].sort((a, b) => (built.has(b) - built.has(a)) || a.localeCompare(b));
  $("lang").replaceChildren(...ordered.map((code) =>
    el("option", { value: code, selected: code === state.lang },
      `${LANGUAGES[code] || code} (${code})${built.has(code) ? "" : " · prepared on first question"}`)));
  renderVersion();
  renderExamples();
}

function shortTitle(corpus) {
  const title = corpus.title || corpus.name;
  return title.length > 70 ? `${corpus.name} — ${title.slice(0, 68)}…` : `${corpus.name} — ${title}`;
}

function renderVersion() {
  const corpus = currentCorpus();
  if (!corpus) return;
  const built = builtLang(corpus, state.lang);
  const language = LANGUAGES[state.lang] || state.lang;
  const version = $("version");
  version.dataset.state = !built ? "unbuilt" : ready(corpus, state.lang) ? "ready" : "unindexed";
  if (!state.lang) version.textContent = `${corpus.name} cannot be had in any language on this server.`;
  else if (!built) version.textContent = `Not prepared here yet in ${language}: the first question fetches and indexes it (a few minutes).`;
  else version.textContent = `Text: ${built.version}${corpus.celex ? ` · CELEX ${corpus.celex}` : ""} · ${language}`
    + (ready(corpus, state.lang) ? "" : " · its search index is built on the first question");
  $("empty-corpus").textContent = corpus.title || corpus.name;
}

function renderExamples() {
  const examples = EXAMPLES[`${state.corpus}/${state.lang}`] || [];
  $("examples").replaceChildren(...examples.map((q) =>
    el("li", {}, el("button", { type: "button", class: "example", onclick: () => ask(q) }, q))));
  $("examples").parentElement.querySelector("h2").hidden = examples.length === 0;
}

function choose(corpus, lang) {
  const changed = corpus !== state.corpus || lang !== state.lang;
  state.corpus = corpus;
  state.lang = lang;
  renderPicker();
  // A conversation is about one text; an error card about another text is cleared with it.
  if (changed && $("conversation").children.length) newConversation();
}

// -- the conversation ----------------------------------------------------------------------------

function showEmpty() {
  $("empty").hidden = state.turns.length > 0 || $("conversation").children.length > 0;
}

function newConversation() {
  state.thread = null;
  state.turns = [];
  $("conversation").replaceChildren();
  closePanel();
  showEmpty();
  renderThreads();
  $("question").focus();
}

async function ask(question) {
  question = question.trim();
  if (!question || state.busy) return;
  state.busy = true;
  $("ask").disabled = true;
  $("question").value = "";
  for (const failed of $("conversation").querySelectorAll(".turn.failed")) failed.remove();  // asking again clears them
  const prepared = ready(currentCorpus(), state.lang);
  const turn = el("li", { class: "turn" },
    el("div", { class: "question" }, el("p", {}, question)));
  const card = answerCard();
  turn.append(card.node);
  $("conversation").append(turn);
  showEmpty();
  scrollDown();
  try {
    const document_ = await streamAnswer(question, card);
    state.thread = document_.thread;
    state.turns.push({ question, document: document_ });
    saveThread();
  } catch (error) {
    card.fail(error);
    turn.classList.add("failed");
  } finally {
    scrollDown();
    state.busy = false;
    $("ask").disabled = false;
    $("question").focus();
  }
  if (!prepared) await loadCorpora();  // the question may have built and indexed the text: say so
}

async function streamAnswer(question, card) {
  const body = { question, corpus: state.corpus, lang: state.lang };
  if (state.thread) body.thread = state.thread;
  const response = await fetch("/ask", {
    method: "POST",
    headers: headers({ "Content-Type": "application/json", Accept: "text/event-stream" }),
    body: JSON.stringify(body),
  });
  if (!response.ok) throw apiError(response, await response.json().catch(() => ({})));
  for await (const { event, data } of events(response)) {
    if (event === "progress") card.progress(data);
    else if (event === "heading") card.heading(data.text);
    else if (event === "sentence") card.sentence(data);
    else if (event === "citation") card.citation(data);
    else if (event === "refusal") card.refusal(data);
    else if (event === "error") throw Object.assign(new Error(data.message), { code: data.error });
    else if (event === "done") { card.done(data); return data; }
    scrollDown();
  }
  throw new Error("the answer stopped before it was complete — ask again");
}

function scrollDown() {
  const list = $("conversation");
  list.scrollTop = list.scrollHeight;
}

// A `progress` event's status line: "Preparing gdpr (en): embed 256/587".
function progressText(name, lang, data) {
  // A stage without a total (fetch, parse) has no count worth showing: "Preparing gdpr (en): fetch…".
  const count = Number.isFinite(data.total) && Number.isFinite(data.done) ? ` ${data.done}/${data.total}` : "…";
  return `Preparing ${name} (${lang}): ${data.stage || "working"}${count}`;
}

function answerCard() {
  const name = currentCorpus()?.name || state.corpus;
  const lang = state.lang;
  const statusText = el("span", { class: "status-text" },
    `Searching ${name} (${lang}) and checking every citation…`);
  const status = el("p", { class: "status" }, el("span", { class: "spinner", "aria-hidden": "true" }), statusText);
  const sentences = el("div", { class: "sentences" });
  const sources = el("ol", { class: "sources" });
  const node = el("article", { class: "answer pending" }, status, sentences);
  const chips = new Map();  // label → [chip elements]
  const citations = new Map();

  function chip(label) {
    const a = el("a", { class: "cite", href: "#", dataset: { label } }, label);
    a.addEventListener("click", (event) => {
      if (event.ctrlKey || event.metaKey || event.shiftKey || event.button === 1) return;  // new tab: EUR-Lex
      event.preventDefault();
      const citation = citations.get(label);
      if (citation) openProvision(citation);
    });
    if (!chips.has(label)) chips.set(label, []);
    chips.get(label).push(a);
    if (citations.has(label)) dress(a, citations.get(label));
    return a;
  }

  function dress(a, citation) {
    a.href = citation.url;
    a.textContent = citation.label_local || citation.label;
    a.title = `${citation.label_local || citation.label} — ${citation.title} (click: full text; Ctrl-click: EUR-Lex)`;
    a.dataset.id = citation.id;
  }

  return {
    node,
    progress(data) {
      // The text is being fetched, parsed or indexed on first use; the answer replaces this line.
      if (status.isConnected) statusText.textContent = progressText(name, lang, data || {});
    },
    heading(text) {
      // Where the answer comes from: a heading, not a citation (the sentences carry those).
      status.remove();
      node.classList.remove("pending");
      sentences.before(el("h3", { class: "answer-heading" }, text));
    },
    sentence(data) {
      status.remove();
      node.classList.remove("pending");
      sentences.append(el("p", { class: "sentence" },
        el("span", { class: "text" }, data.text), " ",
        el("span", { class: "cites" }, data.citations.map((label) => chip(label)))));
    },
    citation(data) {
      citations.set(data.label, data);
      state.citationText.set(data.id + "|" + data.label, data.text);
      for (const a of chips.get(data.label) || []) dress(a, data);
    },
    refusal(data) {
      status.remove();
      node.classList.remove("pending");
      node.classList.add("refused");
      node.replaceChildren(
        el("h3", {}, "Not answered"),
        el("p", { class: "reason" }, data.answer, " ", el("code", { title: "reason" }, data.reason)),
        seeList(data.see),
        data.covers ? el("p", { class: "covers" }, data.covers) : null);
    },
    done(document_) {
      status.remove();
      node.classList.remove("pending");
      const meta = el("p", { class: "meta" },
        `${document_.corpus.name} · ${LANGUAGES[document_.corpus.lang] || document_.corpus.lang} · `,
        el("span", { class: "text-version" }, document_.corpus.version || "version unknown"));
      if (document_.outcome === "answered") {
        sources.replaceChildren(...document_.citations.map((c) => el("li", {},
          chip(c.label), el("span", { class: "source-title" }, c.title || ""),
          el("a", { class: "eurlex", href: c.url, target: "_blank", rel: "noopener noreferrer" }, "EUR-Lex ↗"))));
        node.append(el("h3", { class: "sources-head" }, "Sources"), sources);
      }
      if (document_.outcome === "answered" && document_.notice) {
        // What this answer's mode checked: quotations (extractive) or a model's sentences (llm).
        node.append(el("p", { class: "answer-notice" }, document_.notice));
        $("notice").textContent = document_.notice;
      }
      node.dataset.outcome = document_.outcome;
      node.prepend(meta);
    },
    fail(error) {
      status.remove();
      node.classList.remove("pending");
      node.classList.add("failed");
      node.dataset.outcome = "failed";
      node.replaceChildren(el("h3", {}, "Something went wrong"), el("p", {}, error.message),
        error.code ? el("p", {}, el("code", {}, error.code)) : null);
    },
  };
}

function seeList(see) {
  // A refusal's pointers: where the law deals with the matter. Links, never quoted as an answer.
  if (!see || !see.length) return null;
  return el("div", { class: "see" },
    el("h4", { class: "see-head" }, "Where the law deals with this"),
    el("ul", {}, see.map((p) => el("li", {},
      el("a", { class: "see-link", href: p.url, target: "_blank", rel: "noopener noreferrer",
                dataset: { corpus: p.corpus, label: p.label } },
        `${p.corpus} ${p.label}`),
      el("span", { class: "see-why" }, " — ", p.why)))));
}

function replay(turn) {
  // Redraw a saved turn through the same card the stream fills.
  const node = el("li", { class: "turn" }, el("div", { class: "question" }, el("p", {}, turn.question)));
  const card = answerCard();
  card.node.classList.add("replayed");
  node.append(card.node);
  const d = turn.document;
  if (d.outcome === "answered") {
    for (const c of d.citations) card.citation(c);
    if (d.heading) card.heading(d.heading);
    d.sentences.forEach((s, index) => card.sentence({ index, ...s }));
  } else {
    card.refusal({ reason: d.reason, answer: d.answer, covers: d.covers, see: d.see });
  }
  card.done(d);
  return node;
}

// -- the provision panel ---------------------------------------------------------------------------

async function openProvision(citation) {
  state.panelId = citation.id;
  const panel = $("panel");
  panel.hidden = false;
  document.body.classList.add("panel-open");
  $("panel-kicker").textContent = citation.label === citation.label_local ? "" : citation.label;
  $("panel-label").textContent = citation.label_local || citation.label;
  $("panel-title").textContent = citation.title || "";
  $("panel-text").replaceChildren(el("p", { class: "status" }, "Loading the provision…"));
  $("panel-link").href = citation.url;
  $("panel-version").textContent = "";
  panel.focus();
  try {
    let provision = state.provisionCache.get(citation.id);
    if (!provision) {
      provision = await api(`/provisions/${citation.id.split("/").map(encodeURIComponent).join("/")}`);
      state.provisionCache.set(citation.id, provision);
    }
    if (state.panelId !== citation.id) return;  // another provision was opened meanwhile
    renderProvision(provision, citation);
  } catch (error) {
    $("panel-text").replaceChildren(el("p", { class: "error" }, error.message));
    return;
  }
  renderReferences(citation.id).catch((error) => {
    if (state.panelId === citation.id) $("panel-text").append(el("p", { class: "error refs-error" }, error.message));
  });
}

// What the provision cites and what cites it, each a link that opens that provision here.
async function renderReferences(id) {
  let refs = state.referenceCache.get(id);
  if (!refs) {
    refs = await api(`/provisions/${id.split("/").map(encodeURIComponent).join("/")}/references`);
    state.referenceCache.set(id, refs);
  }
  if (state.panelId !== id) return;  // another provision was opened meanwhile
  const list = (rows, heading, kind) => el("section", { class: `refs refs-${kind}` },
    el("h3", {}, `${heading} (${rows.length})`),
    rows.length ? el("ul", {}, rows.map((r) => el("li", {},
      r.id ? el("a", { href: "#", class: "ref", dataset: { id: r.id, label: r.label },
        onclick: (event) => { event.preventDefault(); openProvision({ id: r.id, label: r.label, label_local: r.label_local }); } },
        r.label_local)
        : el("span", { class: "ref external" }, r.label_local, r.act ? ` (${r.act})` : ""),
      el("span", { class: "words" }, ` — “${r.words}”`)))) : el("p", { class: "status" }, "none"));
  $("panel-text").append(list(refs.cites, "Cites", "cites"), list(refs.cited_by, "Cited by", "cited-by"));
}

function renderProvision(p, citation) {
  const path = (p.path || []).map((part, i) => (p.path_titles && p.path_titles[i] ? `${part} — ${p.path_titles[i]}` : part));
  $("panel-kicker").textContent = [p.instrument, ...path].join(" › ");
  $("panel-title").textContent = p.title || "";
  const cited = citation.label !== p.label ? (citation.text || "") : "";
  const lines = p.text.split("\n").map((line) => {
    const depth = line.length - line.trimStart().length;
    const marked = cited && cited.includes(line.trim()) && !p.text.startsWith(line);
    return el("p", { class: `line depth-${Math.min(depth / 2, 4)}${marked ? " cited" : ""}` }, line.trim());
  });
  $("panel-text").replaceChildren(...lines);
  if (cited) {
    $("panel-title").textContent = `${p.title ? p.title + " — " : ""}the cited point is highlighted in ${p.label_local || p.label}`;
    $("panel-text").querySelector(".cited")?.scrollIntoView({ block: "center" });
  }
  $("panel-version").textContent = `${p.version}${p.celex ? ` · CELEX ${p.celex}` : ""} · id ${p.id}`;
  $("panel-link").href = citation.url || p.url;
  $("panel-copy").onclick = () => copyCitation(citation, p);
}

function copyCitation(citation, p) {
  const text = `${citation.label_local || citation.label}, ${p.title ? p.title + ", " : ""}${p.version} — ${citation.url || p.url}`;
  navigator.clipboard?.writeText(text).then(() => { $("panel-copy").textContent = "Copied"; },
    () => { $("panel-copy").textContent = "Copy failed"; });
  setTimeout(() => { $("panel-copy").textContent = "Copy citation"; }, 1500);
}

function closePanel() {
  $("panel").hidden = true;
  document.body.classList.remove("panel-open");
}

// -- conversations kept in this browser ----------------------------------------------------------

function loadThreads() {
  try { return JSON.parse(localStorage.getItem("pincite.threads") || "[]"); } catch { return []; }
}

function saveThread() {
  const threads = loadThreads().filter((t) => t.id !== state.thread);
  threads.unshift({ id: state.thread, corpus: state.corpus, lang: state.lang, title: state.turns[0].question,
    updated: new Date().toISOString(), turns: state.turns });
  localStorage.setItem("pincite.threads", JSON.stringify(threads.slice(0, 30)));
  renderThreads();
}

function renderThreads() {
  const threads = loadThreads();
  $("thread-list").replaceChildren(...threads.map((t) => el("li", {},
    el("button", { type: "button", class: t.id === state.thread ? "thread current" : "thread",
      onclick: () => openThread(t.id) },
      el("span", { class: "thread-title" }, t.title),
      el("span", { class: "thread-meta" }, `${t.corpus} · ${t.lang} · ${t.turns.length} ${t.turns.length === 1 ? "question" : "questions"}`)))));
}

function openThread(id) {
  const thread = loadThreads().find((t) => t.id === id);
  if (!thread) return;
  state.corpus = thread.corpus;
  state.lang = thread.lang;
  renderPicker();
  state.thread = thread.id;
  state.turns = thread.turns;
  $("conversation").replaceChildren(...thread.turns.map(replay));
  scrollDown();
  closePanel();
  showEmpty();
  renderThreads();
}

// -- start ------------------------------------------------------------------------------------------

async function start() {
  $("composer").addEventListener("submit", (event) => { event.preventDefault(); ask($("question").value); });
  $("question").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey) { event.preventDefault(); ask($("question").value); }
  });
  $("corpus").addEventListener("change", (event) => {
    const corpus = state.corpora.find((c) => c.name === event.target.value);
    choose(corpus.name, pickLang(corpus, state.lang));
  });
  $("lang").addEventListener("change", (event) => choose(state.corpus, event.target.value));
  $("new-thread").addEventListener("click", newConversation);
  $("panel-close").addEventListener("click", closePanel);
  document.addEventListener("keydown", (event) => { if (event.key === "Escape") closePanel(); });
  $("keyform").addEventListener("submit", (event) => {
    event.preventDefault();
    sessionStorage.setItem("pincite.key", $("apikey").value.trim());
    $("keybar").hidden = true;
    loadCorpora();
  });
  $("upload").addEventListener("change", (event) => {
    const file = event.target.files[0];
    if (file) uploadPdf(file);
    event.target.value = "";
  });
  renderThreads();
  await loadCorpora();
}

// A PDF sent here reaches the same code as `pincite corpus add-pdf`; it is then chosen.
async function uploadPdf(file) {
  const status = $("upload-status");
  status.textContent = `Adding ${file.name}…`;
  const response = await fetch(`/corpora/pdf?filename=${encodeURIComponent(file.name)}`, {
    method: "POST", body: file, headers: headers({ "Content-Type": "application/pdf", Accept: "application/json" }),
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    status.textContent = `Not added: ${apiError(response, body).message}`;
    return;
  }
  status.textContent = `Added ${body.document} as “${body.name}”.`;
  await loadCorpora();
  choose(body.name, body.lang);
}

async function loadCorpora() {
  try {
    state.corpora = (await api("/corpora")).corpora;
    renderPicker();
    document.body.dataset.ready = "true";
  } catch (error) {
    $("version").textContent = `Cannot list the corpora: ${error.message}`;
  }
}

start();
