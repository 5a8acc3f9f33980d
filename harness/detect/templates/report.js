// The harness report's behaviour: filters, the findings list, conversations drawn on demand.
// Untrusted text (messages, evidence, names) is only ever set with textContent or as a text node.
(function () {
  "use strict";

  function plural(count, word) {
    return count + " " + word + (count === 1 ? "" : "s");
  }

  var DATA = JSON.parse(document.getElementById("report-data").textContent);
  var FINDINGS_PAGE = 200;
  var CONVERSATIONS_PAGE = 50;
  var MESSAGES_CHUNK = 400;
  var LABELS = {
    duplicate: "duplicate",
    missed_request: "missed request",
    silent_leak: "silent-mode leak",
    wrong_scope: "wrong scope",
    awkward_ack: "awkward acknowledgement",
    failed_check: "failed check"
  };

  var filters = { kinds: {}, severities: {}, conversation: "", withFindings: false };
  var shownFindings = [];
  var findingsRendered = 0;
  var shownConversations = [];
  var conversationsRendered = 0;
  var conversations = DATA.conversations.map(function () { return null; });
  var selected = null;

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }

  function kindLabel(finding) {
    var label = LABELS[finding.kind] || finding.kind;
    if (finding.method) { label += " · " + finding.method; }
    if (finding.scope) { label += " · " + finding.scope.replace("_", " "); }
    return label;
  }

  function badge(kind, text) {
    return el("span", "badge kind-" + kind, text);
  }

  // --- filters ---------------------------------------------------------------------------------

  function readFilters() {
    document.querySelectorAll("input[name=kind]").forEach(function (box) {
      filters.kinds[box.value] = box.checked;
      document.body.classList.toggle("hide-kind-" + box.value, !box.checked);
    });
    document.querySelectorAll("input[name=severity]").forEach(function (box) {
      filters.severities[box.value] = box.checked;
      document.body.classList.toggle("hide-severity-" + box.value, !box.checked);
    });
    filters.conversation = document.getElementById("filter-conversation").value.trim().toLowerCase();
    filters.withFindings = document.getElementById("filter-with-findings").checked;
  }

  function findingShown(finding) {
    return filters.kinds[finding.kind] !== false && filters.severities[finding.severity] !== false;
  }

  function conversationMatches(index) {
    var conversation = DATA.conversations[index];
    if (filters.conversation && conversation.title.toLowerCase().indexOf(filters.conversation) < 0) {
      return false;
    }
    if (filters.withFindings) {
      return conversation.findings.some(function (f) { return findingShown(DATA.findings[f]); });
    }
    return true;
  }

  function applyFilters() {
    readFilters();
    var matching = {};
    shownConversations = [];
    DATA.conversations.forEach(function (_, index) {
      if (conversationMatches(index)) {
        shownConversations.push(index);
        matching[index] = true;
      }
    });
    shownFindings = [];
    DATA.findings.forEach(function (finding, index) {
      if (matching[finding.conversation] && findingShown(finding)) { shownFindings.push(index); }
    });
    var list = document.getElementById("findings");
    list.textContent = "";
    findingsRendered = 0;
    moreFindings();
    var box = document.getElementById("conversations");
    box.textContent = "";
    conversationsRendered = 0;
    moreConversations();
    document.getElementById("findings-count").textContent =
      "(" + shownFindings.length + " of " + DATA.findings.length + ")";
    document.getElementById("conversations-count").textContent =
      "(" + shownConversations.length + " of " + DATA.conversations.length + ")";
  }

  // --- the findings list -----------------------------------------------------------------------

  function findingItem(index) {
    var finding = DATA.findings[index];
    var item = el("li", "finding severity-" + finding.severity + " kind-" + finding.kind);
    item.id = "f-" + index;
    var button = el("button", "finding-link");
    button.type = "button";
    button.dataset.finding = String(index);
    var head = el("span", "finding-head");
    head.appendChild(badge(finding.kind, kindLabel(finding)));
    head.appendChild(el("span", "severity " + finding.severity, finding.severity));
    head.appendChild(el("span", "where",
      DATA.conversations[finding.conversation].title + " · turn " + finding.turn));
    button.appendChild(head);
    var who = finding.message_ids.length
      ? finding.message_ids.map(function (id, i) {
          return id + " (" + (finding.senders[i] || "?") + ")";
        }).join(", ")
      : "expected from " + finding.senders.join(", ");
    button.appendChild(el("span", "finding-messages", who));
    button.appendChild(el("span", "evidence", finding.evidence));
    if (finding.confidence) button.appendChild(el("span", "confidence", finding.confidence));
    if (finding.cause) button.appendChild(el("span", "cause", "cause: " + finding.cause));
    item.appendChild(button);
    return item;
  }

  function moreFindings() {
    var list = document.getElementById("findings");
    var end = Math.min(shownFindings.length, findingsRendered + FINDINGS_PAGE);
    var fragment = document.createDocumentFragment();
    for (var i = findingsRendered; i < end; i++) { fragment.appendChild(findingItem(shownFindings[i])); }
    list.appendChild(fragment);
    findingsRendered = end;
    document.getElementById("findings-more").hidden = findingsRendered >= shownFindings.length;
  }

  // --- conversations -----------------------------------------------------------------------------

  function conversationState(index) {
    if (conversations[index]) { return conversations[index]; }
    var data = DATA.conversations[index];
    var section = el("section", "conversation");
    section.id = "c-" + index;
    var toggle = el("button", "conversation-toggle");
    toggle.type = "button";
    toggle.setAttribute("aria-expanded", "false");
    toggle.dataset.conversation = String(index);
    toggle.appendChild(el("span", "conversation-title", data.title));
    toggle.appendChild(el("span", "muted",
      plural(data.turns, "turn") + ", " + plural(data.messages.length, "message")));
    if (data.errors) { toggle.appendChild(el("span", "count error", plural(data.errors, "error"))); }
    if (data.warnings) {
      toggle.appendChild(el("span", "count warning", data.warnings + " warning(s)"));
    }
    if (!data.errors && !data.warnings) { toggle.appendChild(el("span", "count clean", "clean")); }
    section.appendChild(toggle);
    var chat = el("div", "chat");
    chat.hidden = true;
    section.appendChild(chat);
    var state = {
      section: section, toggle: toggle, chat: chat, chunks: null,
      byMessage: null, byTurn: null, positions: null, plans: null
    };
    conversations[index] = state;
    return state;
  }

  function moreConversations() {
    var box = document.getElementById("conversations");
    var end = Math.min(shownConversations.length, conversationsRendered + CONVERSATIONS_PAGE);
    var fragment = document.createDocumentFragment();
    for (var i = conversationsRendered; i < end; i++) {
      fragment.appendChild(conversationState(shownConversations[i]).section);
    }
    box.appendChild(fragment);
    conversationsRendered = end;
    document.getElementById("conversations-more").hidden =
      conversationsRendered >= shownConversations.length;
  }

  function buildIndex(state, conversationIndex) {
    if (state.byMessage) { return; }
    var data = DATA.conversations[conversationIndex];
    state.byMessage = {};
    state.byTurn = {};
    state.positions = {};
    state.plans = {};
    data.messages.forEach(function (row, position) { state.positions[row[0]] = position; });
    data.plans.forEach(function (plan) { state.plans[plan[0]] = plan; });
    data.findings.forEach(function (f) {
      var finding = DATA.findings[f];
      if (finding.message_ids.length) {
        finding.message_ids.forEach(function (id) {
          (state.byMessage[id] = state.byMessage[id] || []).push(f);
        });
      } else {
        (state.byTurn[finding.turn] = state.byTurn[finding.turn] || []).push(f);
      }
    });
  }

  // A conversation's messages are drawn in chunks of MESSAGES_CHUNK, each on demand: opening it
  // draws the first chunk, a finding draws the chunks of its messages, and every other chunk is a
  // button until clicked. So a finding deep in a long conversation costs one chunk, not all before.
  function open(conversationIndex) {
    var state = conversationState(conversationIndex);
    buildIndex(state, conversationIndex);
    if (!state.chunks) {
      var count = DATA.conversations[conversationIndex].messages.length;
      state.chunks = [];
      for (var k = 0; k * MESSAGES_CHUNK < count; k++) {
        var box = el("div", "chunk");
        var first = k * MESSAGES_CHUNK + 1;
        var last = Math.min(count, (k + 1) * MESSAGES_CHUNK);
        var gap = el("button", "more gap", "show messages " + first + "–" + last + " of " + count);
        gap.type = "button";
        gap.dataset.chunk = conversationIndex + ":" + k;
        box.appendChild(gap);
        state.chunks.push({ box: box, drawn: false });
        state.chat.appendChild(box);
      }
      if (state.chunks.length) { drawChunk(conversationIndex, 0); }
    }
    state.chat.hidden = false;
    state.toggle.setAttribute("aria-expanded", "true");
    return state;
  }

  function close(conversationIndex) {
    var state = conversationState(conversationIndex);
    state.chat.hidden = true;
    state.toggle.setAttribute("aria-expanded", "false");
  }

  function drawChunk(conversationIndex, k) {
    var state = conversations[conversationIndex];
    var chunk = state.chunks[k];
    if (chunk.drawn) { return; }
    var messages = DATA.conversations[conversationIndex].messages;
    var fragment = document.createDocumentFragment();
    var end = Math.min(messages.length, (k + 1) * MESSAGES_CHUNK);
    for (var i = k * MESSAGES_CHUNK; i < end; i++) {
      var row = messages[i];
      var previous = i > 0 ? messages[i - 1][1] : null;
      if (row[1] !== previous) {
        fragment.appendChild(turnSeparator(conversationIndex, state, row[1]));
      } else if (i === k * MESSAGES_CHUNK) {
        fragment.appendChild(el("div", "turn continued", "turn " + row[1] + " (continued)"));
      }
      fragment.appendChild(bubble(conversationIndex, state, row, i));
    }
    chunk.box.textContent = "";
    chunk.box.appendChild(fragment);
    chunk.drawn = true;
  }

  function drawMessage(conversationIndex, position) {
    drawChunk(conversationIndex, Math.floor(position / MESSAGES_CHUNK));
  }

  function turnSeparator(conversationIndex, state, turn) {
    var box = el("div", "turn");
    box.id = "t-" + conversationIndex + "-" + turn;
    box.appendChild(el("span", "turn-label", "turn " + turn));
    var plan = state.plans[turn];
    if (plan && plan[1].length) {
      var list = el("ul", "plan");
      list.setAttribute("aria-label", "plan of turn " + turn);
      plan[1].forEach(function (step) {
        var item = el("li");
        item.appendChild(el("span", "plan-request", step[1]));
        item.appendChild(el("span", "plan-arrow", " → "));
        item.appendChild(el("span", "plan-agent", step[0]));
        list.appendChild(item);
      });
      box.appendChild(list);
    }
    if (plan && plan[2].length) { box.appendChild(el("span", "failed", "failed: " + plan[2].join(", "))); }
    (state.byTurn[turn] || []).forEach(function (f) {
      box.classList.add("has-finding");
      box.appendChild(flag(f, null));
    });
    return box;
  }

  function flag(findingIndex, messageId) {
    var finding = DATA.findings[findingIndex];
    var text = kindLabel(finding);
    var others = finding.message_ids.filter(function (id) { return id !== messageId; });
    if (messageId !== null && others.length) {
      text += ": with " + others.map(function (id) {
        return id + " (" + finding.senders[finding.message_ids.indexOf(id)] + ")";
      }).join(", ");
    } else if (messageId === null) {
      text += ": " + finding.evidence + (finding.confidence ? "; " + finding.confidence : "");
    }
    var button = el("button", "flag kind-" + finding.kind + " severity-" + finding.severity, text);
    button.type = "button";
    button.title = finding.evidence;
    button.dataset.finding = String(findingIndex);
    return button;
  }

  function bubble(conversationIndex, state, row, position) {
    var id = row[0], role = row[2], sender = row[3], mode = row[4], text = row[5], request = row[6];
    var box = el("div", "msg " + (role === "user" ? "user" : "bot") + (mode ? " mode-" + mode : ""));
    box.id = "m-" + conversationIndex + "-" + position;
    box.dataset.id = id;
    var who = el("div", "who");
    who.appendChild(el("span", "sender", sender));
    if (mode) { who.appendChild(el("span", "mode mode-" + mode, mode)); }
    who.appendChild(el("span", "msg-id", id));
    box.appendChild(who);
    var related = state.byMessage[id] || [];
    box.appendChild(messageText(text, id, related));
    if (request) { box.appendChild(el("div", "request", "answers: " + request)); }
    if (related.length) {
      var flags = el("div", "flags");
      related.forEach(function (f) {
        flags.appendChild(flag(f, id));
        box.classList.add("flagged", "flag-kind-" + DATA.findings[f].kind);
      });
      box.appendChild(flags);
    }
    return box;
  }

  // The message's text with the findings' passages marked: every occurrence of each highlight,
  // overlapping ranges merged; the text itself only ever goes into text nodes.
  function messageText(text, id, related) {
    var box = el("div", "text");
    var ranges = [];
    related.forEach(function (f) {
      var finding = DATA.findings[f];
      finding.highlights.forEach(function (h) {
        if (h.message_id !== id || !h.text) { return; }
        var at = text.indexOf(h.text);
        while (at >= 0) {
          ranges.push([at, at + h.text.length, finding.kind, f]);
          at = text.indexOf(h.text, at + h.text.length);
        }
      });
    });
    ranges.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });
    var merged = [];
    ranges.forEach(function (range) {
      var last = merged[merged.length - 1];
      if (last && range[0] <= last[1]) { last[1] = Math.max(last[1], range[1]); }
      else { merged.push(range.slice()); }
    });
    var at = 0;
    merged.forEach(function (range) {
      if (range[0] > at) { box.appendChild(document.createTextNode(text.slice(at, range[0]))); }
      var mark = el("mark", "kind-" + range[2], text.slice(range[0], range[1]));
      mark.dataset.finding = String(range[3]);
      box.appendChild(mark);
      at = range[1];
    });
    if (at < text.length) { box.appendChild(document.createTextNode(text.slice(at))); }
    return box;
  }

  // --- selecting a finding -------------------------------------------------------------------------

  function ensureListed(conversationIndex) {
    if (shownConversations.indexOf(conversationIndex) < 0) {
      document.getElementById("filter-conversation").value = "";
      document.getElementById("filter-with-findings").checked = false;
      applyFilters();
    }
    while (!document.getElementById("c-" + conversationIndex) &&
           conversationsRendered < shownConversations.length) {
      moreConversations();
    }
  }

  function selectFinding(findingIndex) {
    var finding = DATA.findings[findingIndex];
    var conversationIndex = finding.conversation;
    ensureListed(conversationIndex);
    var state = conversationState(conversationIndex);
    buildIndex(state, conversationIndex);
    open(conversationIndex);
    var targets = [];
    finding.message_ids.forEach(function (id) {
      var position = state.positions[id];
      if (position !== undefined) {
        targets.push("m-" + conversationIndex + "-" + position);
        drawMessage(conversationIndex, position);
      }
    });
    if (!targets.length) {
      targets.push("t-" + conversationIndex + "-" + finding.turn);
      var messages = DATA.conversations[conversationIndex].messages;
      for (var i = 0; i < messages.length; i++) {
        if (messages[i][1] === finding.turn) { drawMessage(conversationIndex, i); break; }
      }
    }
    if (selected) {
      selected.forEach(function (node) { node.classList.remove("selected"); });
    }
    selected = [];
    targets.forEach(function (id) {
      var node = document.getElementById(id);
      if (node) { node.classList.add("selected"); selected.push(node); }
    });
    var item = document.getElementById("f-" + findingIndex);
    if (item) { item.classList.add("selected"); selected.push(item); }
    if (selected.length && selected[0] !== item) {
      selected[0].scrollIntoView({ block: "center" });
    }
  }

  // --- events ------------------------------------------------------------------------------------

  document.addEventListener("click", function (event) {
    var target = event.target.closest("[data-finding],[data-conversation],[data-chunk]");
    if (!target) { return; }
    if (target.dataset.finding !== undefined) {
      selectFinding(Number(target.dataset.finding));
    } else if (target.dataset.conversation !== undefined) {
      var i = Number(target.dataset.conversation);
      if (target.getAttribute("aria-expanded") === "true") { close(i); } else { open(i); }
    } else {
      var parts = target.dataset.chunk.split(":");
      drawChunk(Number(parts[0]), Number(parts[1]));
    }
  });
  document.getElementById("findings-more").addEventListener("click", moreFindings);
  document.getElementById("conversations-more").addEventListener("click", moreConversations);
  document.getElementById("filters").addEventListener("change", applyFilters);
  document.getElementById("filter-conversation").addEventListener("input", applyFilters);

  applyFilters();
  document.body.dataset.ready = "true";
})();
