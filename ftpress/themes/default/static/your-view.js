/* "Your view": a player's report, sealed to them, opened in the browser with their
   key; their orders sealed in the browser to the umpires and to them (age, through
   static/age.js). The key never leaves the page: it is read from the form, kept in
   localStorage only if the player asks, and used here alone. Everything shown is
   set as text (textContent), never as markup. The report's layout mirrors the
   page's template (your_view.html), which shows the same report in a player's own
   view (ftpress build --view PLAYER). */
(function () {
  "use strict";
  var page = document.getElementById("your-view");
  if (!page || !window.ftpressAge) return;
  var age = window.ftpressAge;
  var pub = JSON.parse(page.dataset.public || "{}");
  var orders = page.dataset.orders ? JSON.parse(page.dataset.orders) : null;
  var STORE = "ftpress-your-view-key";
  var $ = function (id) { return document.getElementById(id); };

  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = text;
    if (cls) node.className = cls;
    return node;
  }

  function say(text, bad) {
    var status = $("yv-status");
    if (!status) return;
    status.textContent = text;
    status.classList.toggle("yv-bad", !!bad);
  }

  async function nameFor(recipient) {
    var bytes = new TextEncoder().encode(pub.namePrefix + recipient.trim());
    var digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    var hex = Array.from(digest, function (b) { return b.toString(16).padStart(2, "0"); });
    return hex.join("").slice(0, 32) + ".age";
  }

  function keyLine(text) {
    var lines = text.split(/\r?\n/).map(function (l) { return l.trim(); });
    return lines.find(function (l) { return l.indexOf("AGE-SECRET-KEY-1") === 0; }) || null;
  }

  function section(s) {
    var box = el("section", null, "yv-section");
    box.id = "yv-" + s.id;
    box.appendChild(el("h2", s.title));
    if (s.lines) {
      var list = el("ul");
      s.lines.forEach(function (line) { list.appendChild(el("li", line)); });
      box.appendChild(list);
    } else if (s.rows && s.rows.length) {
      var wrap = el("div", null, "table-wrap");
      wrap.tabIndex = 0;
      var table = el("table", null, "campaign-table");
      var head = el("tr");
      s.head.forEach(function (h) { var th = el("th", h); th.scope = "col"; head.appendChild(th); });
      table.appendChild(el("thead")).appendChild(head);
      var body = el("tbody");
      s.rows.forEach(function (row) {
        var tr = el("tr");
        row.forEach(function (cell, i) {
          var td = el(i === 0 ? "th" : "td", cell);
          if (i === 0) td.scope = "row";
          tr.appendChild(td);
        });
        body.appendChild(tr);
      });
      table.appendChild(body);
      wrap.appendChild(table);
      box.appendChild(wrap);
    } else {
      box.appendChild(el("p", s.empty));
    }
    return box;
  }

  /* The form of choices the ruleset computed (report.orders.choices): one select of
     orders per group, its posture where a move takes one, what may go with it (a
     merge), and its tables (ships split off, each ship's part in battle); the file's
     own tables (independents attached); in a week with economic orders, items to add.
     The file is assembled from the lines each choice names, and nothing else, as
     ftpress.yourview.compose.written does: a group that writes no line is "{}", a
     group another's merge (or the file's table) takes in is left out. */
  function picked(c, i) {
    var g = c.groups[i];
    return {
      index: Number($("yv-order-" + i).value),
      order: g.orders[Number($("yv-order-" + i).value)],
      posture: c.postures.length ? Number($("yv-posture-" + i).value) : 0,
      extra: g.extras.length ? g.extras[Number($("yv-extra-" + i).value)] : null,
      extraIndex: g.extras.length ? Number($("yv-extra-" + i).value) : 0
    };
  }

  /* A table's picks: the option index of each item. ``where`` is the group's index,
     or "f" for the file's own tables. */
  function tablePicks(where, t, table) {
    return table.items.map(function (_, k) { return Number($("yv-t-" + where + "-" + t + "-" + k).value); });
  }

  /* The lines a table writes (compose.table_lines): one for each field picked. */
  function tableLines(table, picks) {
    var lines = [];
    table.forms.forEach(function (form) {
      var field = form[0];
      var found = [];
      table.items.forEach(function (item, k) {
        var o = item.options[picks[k]];
        if (picks[k] && o.lines[0] === field) found.push([item.key, o.lines.length > 1 ? o.lines[1] : ""]);
      });
      if (!found.length) return;
      if (form[1] === "list") {
        lines.push(field + ": [" + found.map(function (f) { return f[0]; }).join(", ") + "]");
      } else if (form[1] === "grouped") {
        var order = [], by = {};
        found.forEach(function (f) {
          if (!by[f[1]]) { by[f[1]] = []; order.push(f[1]); }
          by[f[1]].push(f[0]);
        });
        lines.push(field + ": {" + order.map(function (v) { return v + ": [" + by[v].join(", ") + "]"; }).join(", ") + "}");
      } else {
        lines.push(field + ": {" + found.map(function (f) { return f[0] + ": " + f[1]; }).join(", ") + "}");
      }
    });
    return lines;
  }

  /* The groups taken in, each to what takes it: the file's tables first (an
     independent attached), then merges in the file's order; a group taken in takes in
     none (its own pick waits until it is free). */
  function absorbedBy(c) {
    var taken = {};
    c.assignments.forEach(function (table, t) {
      tablePicks("f", t, table).forEach(function (pick, k) {
        table.items[k].options[pick].absorbs.forEach(function (id) {
          if (!taken[id]) taken[id] = table.items[k].key;
        });
      });
    });
    c.groups.forEach(function (g, i) {
      if (taken[g.id]) return;
      var p = picked(c, i);
      if (p.extra) p.extra.absorbs.forEach(function (id) { if (!taken[id]) taken[id] = g.id; });
    });
    return taken;
  }

  function composeFromChoices() {
    var c = orders.choices;
    var taken = absorbedBy(c);
    var kept = c.groups.filter(function (g) { return !taken[g.id]; });
    var lines = c.header.slice();
    c.assignments.forEach(function (table, t) {
      lines.push.apply(lines, tableLines(table, tablePicks("f", t, table)));
    });
    lines.push(kept.length ? c.groups_key + ":" : c.groups_key + ": {}");
    c.groups.forEach(function (g, i) {
      var box = $("yv-group-" + i);
      box.disabled = !!taken[g.id];
      $("yv-taken-" + i).textContent = taken[g.id] ? "Goes with " + taken[g.id] +
        ": it takes no orders of its own." : "";
      if (taken[g.id]) return;
      var p = picked(c, i);
      var body = p.order.lines.slice();
      if (p.order.needs_posture) body = body.concat(c.postures[p.posture].lines);
      if (p.extra) body = body.concat(p.extra.lines);
      g.assignments.forEach(function (table, t) {
        body = body.concat(tableLines(table, tablePicks(i, t, table)));
      });
      lines.push("  " + g.id + ":" + (body.length ? "" : " {}"));
      body.forEach(function (l) { lines.push("    " + l); });
    });
    if (c.economy) {
      var sections = itemSections(c.economy);
      var any = c.economy.sections.some(function (s) { return sections[s.id].length; });
      if (any) {
        lines.push.apply(lines, c.economy.header);
        c.economy.sections.forEach(function (s) { lines.push.apply(lines, sectionLines(s, sections[s.id])); });
      }
    }
    $("yv-order-text").value = lines.join("\n") + "\n";
    sayWords();
    if (c.economy) addUp(c.economy);
  }

  /* What the orders picked will do, in the check's words (computed by ftpress). */
  function sayWords() {
    var c = orders.choices;
    var taken = absorbedBy(c);
    var list = $("yv-words");
    list.textContent = "";
    c.assignments.forEach(function (table, t) {
      tablePicks("f", t, table).forEach(function (pick, k) {
        var o = table.items[k].options[pick];
        if (pick) list.appendChild(el("li", o.words[0] || table.items[k].label + ": " + o.label + "."));
      });
    });
    c.groups.forEach(function (g, i) {
      if (taken[g.id]) return;
      var p = picked(c, i);
      var text = p.order.words[p.order.needs_posture ? p.posture : 0] ||
        g.id + ": " + p.order.label + ".";
      if (p.extra && p.extra !== g.extras[0]) {
        text += " " + (p.extra.words[0] || "And: " + p.extra.label + ".");
      }
      var said = {};
      g.assignments.forEach(function (table, t) {
        tablePicks(i, t, table).forEach(function (pick, k) {
          var o = table.items[k].options[pick];
          var words = o.words[0] || table.items[k].label + " " + o.label + ".";
          if (pick && !said[words]) { said[words] = true; text += " " + words; }
        });
      });
      list.appendChild(el("li", text));
    });
    $("yv-words-box").hidden = $("yv-by-hand").checked;
  }

  /* What the picks of a table let stand, from its data alone (compose.table_allows):
     each option offered with the group's order; at least ``keep`` items picking
     nothing; an item another names picking nothing, and naming none that picks (but
     along a ``chains`` field, which may name one that picks, never looping back); no
     two items giving one value of a ``distinct`` field. An option that would break one
     is disabled; a pick that breaks one is put back to nothing. */
  function syncTable(where, t, table, order) {
    var picks = tablePicks(where, t, table);
    var chains = table.chains || [];
    var changed = true;
    while (changed) {
      changed = false;
      table.items.forEach(function (item, k) {
        var pick = $("yv-t-" + where + "-" + t + "-" + k);
        var others = picks.filter(function (p, m) { return m !== k && p; }).length;
        var named = {};
        var values = {};
        var links = {};
        picks.forEach(function (p, m) {
          if (m === k || !p) return;
          var o = table.items[m].options[p];
          if (o.lines.length > 1 && chains.indexOf(o.lines[0]) < 0) named[o.lines[1]] = true;
          links[table.items[m].key] = o.lines;
          values[o.lines.join("\u0000")] = true;
        });
        /* Along a chains field: the line from the target never comes back to this item;
           along another: the target picks nothing. */
        var targetFree = function (o) {
          if (o.lines.length < 2) return true;
          if (chains.indexOf(o.lines[0]) < 0) return !links[o.lines[1]];
          var at = o.lines[1];
          var seen = {};
          while (links[at] && links[at][0] === o.lines[0] && !seen[at]) {
            seen[at] = true;
            at = links[at][1];
          }
          return at !== item.key;
        };
        item.options.forEach(function (o, j) {
          var ok = j === 0 || (
            (order === null || o.with_orders === null || o.with_orders.indexOf(order) >= 0) &&
            table.items.length - others - 1 >= table.keep &&
            !(table.free_targets && (named[item.key] || !targetFree(o))) &&
            !(table.distinct.indexOf(o.lines[0]) >= 0 && values[o.lines.join("\u0000")]));
          pick.options[j].disabled = !ok;
          if (!ok && picks[k] === j) { pick.value = "0"; picks[k] = 0; changed = true; }
        });
      });
    }
  }

  /* Only the extras the check accepted with the order picked, and none that takes in
     a group another group already takes in; each table's options as its data says. */
  function syncExtras(c) {
    c.assignments.forEach(function (table, t) { syncTable("f", t, table, null); });
    var taken = absorbedBy(c);
    c.groups.forEach(function (g, i) {
      var order = Number($("yv-order-" + i).value);
      g.assignments.forEach(function (table, t) { syncTable(i, t, table, order); });
      if (!g.extras.length) return;
      var pick = $("yv-extra-" + i);
      g.extras.forEach(function (x, j) {
        var clash = x.absorbs.some(function (id) { return taken[id] && taken[id] !== g.id; });
        var ok = j === 0 || (x.with_orders.indexOf(order) >= 0 && !clash);
        pick.options[j].disabled = !ok;
        if (!ok && Number(pick.value) === j) pick.value = "0";
      });
    });
  }

  /* A labelled select of ``choices`` (each with its label), its values their indexes. */
  function labelledSelect(parent, text, id, choices) {
    var label = el("label", text);
    var pick = el("select");
    pick.id = id;
    choices.forEach(function (c, j) { var opt = el("option", c.label); opt.value = j; pick.appendChild(opt); });
    label.appendChild(pick);
    parent.appendChild(label);
    return pick;
  }

  /* A table of items, each a select of its options. */
  function buildTable(parent, where, t, table, onChange) {
    var box = el("fieldset", null, "yv-table");
    box.appendChild(el("legend", table.label));
    table.items.forEach(function (item, k) {
      labelledSelect(box, item.label + " ", "yv-t-" + where + "-" + t + "-" + k, item.options)
        .addEventListener("change", onChange);
    });
    parent.appendChild(box);
  }

  /* Items to add (a set-up's purchases and placements, report.orders.choices with
     "kinds"; or the economic orders of a week, its "economy"): "Add …" buttons, a
     fieldset per item, the file written from the lines each kind names, ${field}
     filled in. */
  var items = [];

  function fieldValue(item, f) {
    var input = item.inputs[f.key];
    if (f.options.length) return f.options[Number(input.value)].lines[0];
    if (f.number) {
      var n = parseInt(input.value, 10);
      return n > 0 ? String(n) : null;
    }
    return input.value.trim() ? JSON.stringify(input.value.trim()) : null;
  }

  /* Each section's lines for the items added (compose.item_lines). */
  function itemSections(ic) {
    var count = 0;
    var found = {};
    ic.sections.forEach(function (section) {
      var written = [];
      items.filter(function (item) { return item.kind.section === section.id; }).forEach(function (item) {
        var values = {};
        var whole = item.kind.fields.every(function (f) {
          values[f.key] = fieldValue(item, f);
          return values[f.key] !== null;
        });
        item.box.classList.toggle("yv-incomplete", !whole);
        if (!whole) return;
        if (item.kind.lines.some(function (l) { return l.indexOf("${id}") >= 0; })) {
          count += 1;
          values.id = ic.counter_prefix + count;
        }
        item.kind.lines.forEach(function (l) {
          written.push(l.replace(/\$\{(\w+)\}/g, function (_, key) { return values[key]; }));
        });
      });
      found[section.id] = written;
    });
    return found;
  }

  function sectionLines(section, body) {
    if (body.length) return section.key ? [section.key].concat(body) : body;
    return section.empty ? [section.empty] : [];
  }

  function composeItems() {
    var c = orders.choices;
    if (!c.kinds) { composeFromChoices(); return; }
    var lines = c.header.slice();
    var sections = itemSections(c);
    c.sections.forEach(function (s) { lines.push.apply(lines, sectionLines(s, sections[s.id])); });
    lines.push.apply(lines, c.footer);
    $("yv-order-text").value = lines.join("\n") + "\n";
    addUp(c);
  }

  /* The turn's sums (the limits of ``ic``), added up from what each item adds as
     ftpress priced it (a design's price; a number of points times a rate, rounded up;
     ${field} in a sum's name is the item's value of it): shown against their limits;
     over one that blocks, the page will not seal; over one that does not, it warns.
     And an item whose option needs a group to hold, untouched, while it does not. */
  var over = [];

  function addUp(ic) {
    var sums = {};
    var add = function (key, n) { sums[key] = (sums[key] || 0) + n; };
    var holding = {};
    items.forEach(function (item) {
      var values = {};
      item.kind.fields.forEach(function (f) {
        if (f.options.length) values[f.key] = f.options[Number(item.inputs[f.key].value)].lines[0];
      });
      var name = function (sum) { return sum.replace(/\$\{(\w+)\}/g, function (_, key) { return values[key]; }); };
      (item.kind.adds || []).forEach(function (a) {
        if (!a.field) { add(name(a.sum), a.amount); return; }
        var n = parseInt(item.inputs[a.field].value, 10);
        if (n > 0) add(name(a.sum), Math.ceil(n * a.rate[0] / a.rate[1]));
      });
      item.kind.fields.forEach(function (f) {
        if (!f.options.length) return;
        var o = f.options[Number(item.inputs[f.key].value)];
        o.adds.forEach(function (a) { add(a[0], a[1]); });
        (o.holds || []).forEach(function (g) { holding[g] = o.label; });
      });
    });
    var body = $("yv-sums-rows");
    body.textContent = "";
    over = [];
    var warned = [];
    var held = [];
    (ic.limits || []).forEach(function (limit) {
      var most = limit.most_of !== null && limit.most_of !== undefined
        ? (sums[limit.most_of] || 0) : limit.most;
      var n = sums[limit.sum] || 0;
      if (!n && limit.always === false) return;
      var tr = el("tr");
      var th = el("th", limit.label);
      th.scope = "row";
      tr.appendChild(th);
      tr.appendChild(el("td", n.toLocaleString("en")));
      tr.appendChild(el("td", most.toLocaleString("en")));
      var past = limit.label + ": " + n.toLocaleString("en") + " is more than " +
        most.toLocaleString("en") + " (" + limit.why + ")";
      if (n > most) {
        tr.className = "yv-over";
        (limit.blocks === false ? warned : over).push(past);
      }
      tr.appendChild(el("td", n > most ? (limit.blocks === false ? "more than now" : "over") : "within"));
      body.appendChild(tr);
    });
    var c = orders.choices;
    if (!c.kinds) {
      var taken = absorbedBy(c);
      c.groups.forEach(function (g, i) {
        if (!holding[g.id]) return;
        var p = picked(c, i);
        var touched = p.index !== 0 || p.extraIndex !== 0 || taken[g.id] ||
          g.assignments.some(function (table, t) { return tablePicks(i, t, table).some(Boolean); }) ||
          Object.keys(taken).some(function (id) { return taken[id] === g.id; });
        if (touched) {
          held.push(g.id + " must hold this week, with no split or merge, for " + holding[g.id]);
        }
      });
    }
    $("yv-sums").hidden = !(ic.limits && ic.limits.length);
    $("yv-over").textContent = [
      over.length ? "Over a limit, so the page will not seal this: " + over.join("; ") + "." : "",
      held.length ? "The page will not seal this: " + held.join("; ") + "." : "",
      warned.length ? "More than you have now, which the turn may not pay: " +
        warned.join("; ") + "." : ""].filter(Boolean).join(" ");
    over = over.concat(held);
  }

  function addItem(kind, parent) {
    var box = el("fieldset", null, "yv-group");
    box.appendChild(el("legend", kind.label));
    var item = { kind: kind, box: box, inputs: {} };
    kind.fields.forEach(function (f) {
      var id = "yv-item-" + items.length + "-" + f.key;
      if (f.options.length) {
        item.inputs[f.key] = labelledSelect(box, f.label + " ", id, f.options);
      } else {
        var label = el("label", f.label + " ");
        var input = el("input");
        input.id = id;
        if (f.number) { input.type = "number"; input.min = "1"; input.step = "1"; }
        label.appendChild(input);
        box.appendChild(label);
        item.inputs[f.key] = input;
      }
      item.inputs[f.key].addEventListener("input", composeItems);
      item.inputs[f.key].addEventListener("change", composeItems);
    });
    var remove = el("button", "Remove");
    remove.type = "button";
    remove.addEventListener("click", function () {
      items.splice(items.indexOf(item), 1);
      box.remove();
      composeItems();
    });
    box.appendChild(remove);
    parent.appendChild(box);
    items.push(item);
    composeItems();
    return item;
  }

  function buildItems(ic, parent) {
    var bar = el("div", null, "yv-buttons");
    var added = el("div");
    ic.kinds.forEach(function (kind) {
      var add = el("button", "Add " + kind.label);
      add.type = "button";
      add.dataset.kind = kind.id;
      add.addEventListener("click", function () { addItem(kind, added); });
      bar.appendChild(add);
    });
    parent.appendChild(bar);
    parent.appendChild(added);
  }

  function buildChoices() {
    var c = orders.choices;
    var box = $("yv-choice-groups");
    box.textContent = "";
    items = [];
    if (!c) { $("yv-choices").hidden = true; $("yv-order-text").readOnly = false; return; }
    if (c.kinds) {
      buildItems(c, box);
      $("yv-not-offered").textContent = "Not judged or offered here: " + c.not_offered.join("; ") + ".";
      $("yv-choices").hidden = false;
      $("yv-order-text").readOnly = true;
      composeItems();
      return;
    }
    var changed = function () { syncExtras(c); composeFromChoices(); };
    c.assignments.forEach(function (table, t) { buildTable(box, "f", t, table, changed); });
    c.groups.forEach(function (g, i) {
      var set = el("fieldset", null, "yv-group");
      set.id = "yv-group-" + i;
      set.appendChild(el("legend", g.id));
      set.appendChild(el("p", g.about, "small yv-about"));
      var pick = labelledSelect(set, "Order ", "yv-order-" + i, g.orders);
      var posture = c.postures.length ? labelledSelect(set, "Posture ", "yv-posture-" + i, c.postures) : null;
      if (g.extras.length) labelledSelect(set, "Also ", "yv-extra-" + i, g.extras)
        .addEventListener("change", changed);
      g.assignments.forEach(function (table, t) { buildTable(set, i, t, table, changed); });
      set.appendChild(el("p", null, "small yv-taken")).id = "yv-taken-" + i;
      var sync = function () {
        if (posture) {
          posture.disabled = !g.orders[Number(pick.value)].needs_posture;
          posture.parentNode.hidden = posture.disabled;
        }
        changed();
      };
      pick.addEventListener("change", sync);
      if (posture) {
        posture.addEventListener("change", composeFromChoices);
        posture.parentNode.hidden = true;
        posture.disabled = true;
      }
      box.appendChild(set);
    });
    var notes = c.not_offered.length
      ? "Not offered here: " + c.not_offered.join("; ") + ". Write those in the file by hand." : "";
    if (c.economy) {
      var economy = el("section", null, "yv-economy");
      economy.id = "yv-economy";
      economy.appendChild(el("h3", "Economic orders"));
      buildItems(c.economy, economy);
      box.appendChild(economy);
      notes += " Of the economic orders, not offered or judged here: " +
        c.economy.not_offered.join("; ") + ".";
    }
    syncExtras(c);
    $("yv-not-offered").textContent = notes;
    $("yv-choices").hidden = false;
    $("yv-order-text").readOnly = true;
    composeFromChoices();
  }

  function show(report) {
    var banner = $("yv-banner");
    banner.textContent = "";
    banner.appendChild(el("strong", "Your view: " + report.name + " (" + report.player +
      "), after " + report.turn + "."));
    banner.appendChild(document.createTextNode(
      " For your eyes only: what the rules tell you, and nobody else."));
    banner.hidden = false;
    var box = $("yv-report");
    box.textContent = "";
    report.sections.forEach(function (s) { box.appendChild(section(s)); });
    var sent = el("section", null, "yv-section");
    sent.id = "yv-sent";
    sent.appendChild(el("h2", "Your orders for " + report.open_turn));
    sent.appendChild(el("p", pub.sent.indexOf(report.player) >= 0
      ? "Your orders for " + report.open_turn + " are in: a sealed file of yours is in the " +
        "campaign. Send another to replace it before the deadline."
      : "Your orders for " + report.open_turn + " are not in yet. Without them your groups hold."));
    box.appendChild(sent);
    orders = report.orders;
    $("yv-order-path").textContent = orders.path;
    $("yv-order-text").value = orders.form || "turn: " + report.open_turn + "\nplayer: " +
      report.player + "\n";
    $("yv-orders").hidden = false;
    buildChoices();
    var key = $("yv-key");
    if (key) { key.hidden = true; $("yv-opened").hidden = false; }
  }

  async function unlock(event) {
    event.preventDefault();
    var line = keyLine($("yv-identity").value);
    if (!line) { say("That is not an age key: expected a line 'AGE-SECRET-KEY-1…'.", true); return; }
    var recipient;
    try { recipient = await age.identityToRecipient(line); }
    catch (e) { say("That key cannot be read: " + e.message, true); return; }
    if ($("yv-remember").checked) localStorage.setItem(STORE, line);
    say("Opening your report…");
    var response = await fetch(await nameFor(recipient), { cache: "no-store" });
    if (!response.ok) {
      say("There is no report sealed to this key (" + recipient + ") on the site yet: the " +
          "umpire records your recipient, and the next turn seals your report to it.", true);
      return;
    }
    var sealed = new Uint8Array(await response.arrayBuffer());
    var plain;
    try {
      var d = new age.Decrypter();
      d.addIdentity(line);
      plain = await d.decrypt(sealed, "text");
    } catch (e) { say("Your report would not open with this key: " + e.message, true); return; }
    var cut = plain.lastIndexOf(pub.padMark);  // every sealed file is padded
    var report = JSON.parse(cut >= 0 ? plain.slice(0, cut) : plain);
    if (report.version !== 1) { say("This report is of a form this page does not know.", true); return; }
    say("");
    show(report);
  }

  /* The file padded as ftpress pads every sealed file (ftpress.secrecy.agekeys.pad):
     the text, the padding's mark, spaces, a newline, to the smallest bucket (a power of
     two times the least) that holds them; so a sealed file's size says nothing of how
     many orders it holds. */
  function padded(text) {
    var encoder = new TextEncoder();
    var data = encoder.encode(text);
    var mark = encoder.encode(pub.padMark);
    var least = data.length + mark.length + 1;
    var size = pub.padBucket;
    while (size < least) size *= 2;
    var out = new Uint8Array(size);
    out.set(data);
    out.set(mark, data.length);
    out.fill(32, data.length + mark.length, size - 1);
    out[size - 1] = 10;
    return out;
  }

  function download(link, name, text) {
    link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    link.download = name;
  }

  async function seal(event) {
    event.preventDefault();
    if (!orders || !orders.recipient) return;
    if (orders.choices && !$("yv-by-hand").checked && over.length) {
      $("yv-over").focus();
      return;
    }
    var text = $("yv-order-text").value;
    if (text && text.slice(-1) !== "\n") text += "\n";
    var e = new age.Encrypter();
    orders.umpires.concat([orders.recipient]).forEach(function (r) { e.addRecipient(r); });
    var armored = age.armor.encode(await e.encrypt(padded(text)));
    var name = orders.path + ".age";
    $("yv-sealed-name").textContent = name;
    $("yv-sealed-text").value = armored;
    download($("yv-download"), name.split("/").pop(), armored);
    var github = $("yv-github");
    if (pub.repository) {
      github.href = "https://github.com/" + pub.repository + "/new/main?filename=" +
        encodeURIComponent(name) + "&value=" + encodeURIComponent(armored);
      github.hidden = false;
    } else {
      github.hidden = true;
      $("yv-github-note").textContent = "This site is not a GitHub Pages site, so the page " +
        "does not know the campaign's repository: download or copy the file, and add it " +
        "there as " + name + ".";
    }
    $("yv-sealed").hidden = false;
  }

  async function makeKey() {
    var secret = await age.generateX25519Identity();
    var recipient = await age.identityToRecipient(secret);
    var stamp = new Date().toISOString().replace(/\.\d+Z$/, "Z");
    var file = "# created: " + stamp + "\n# public key: " + recipient + "\n" + secret + "\n";
    $("yv-made-secret").value = secret;
    $("yv-made-recipient").value = recipient;
    download($("yv-made-download"), "ftpress-player-key.txt", file);
    $("yv-made").hidden = false;
    $("yv-identity").value = secret;
  }

  function copy(id) {
    return function () {
      var text = $(id).value;
      if (navigator.clipboard) navigator.clipboard.writeText(text);
    };
  }

  var unlockForm = $("yv-unlock");
  if (unlockForm) {
    unlockForm.addEventListener("submit", unlock);
    var kept = localStorage.getItem(STORE);
    if (kept) { $("yv-identity").value = kept; $("yv-remember").checked = true; }
    $("yv-forget").addEventListener("click", function () {
      localStorage.removeItem(STORE);
      $("yv-identity").value = "";
      $("yv-remember").checked = false;
      say("Your key is no longer kept on this device.");
    });
    $("yv-identity-file").addEventListener("change", function (event) {
      var file = event.target.files[0];
      if (file) file.text().then(function (text) { $("yv-identity").value = keyLine(text) || ""; });
    });
    $("yv-make").addEventListener("click", makeKey);
    $("yv-close").addEventListener("click", function () { location.reload(); });
    $("yv-made-copy").addEventListener("click", copy("yv-made-recipient"));
  }
  $("yv-compose").addEventListener("submit", seal);
  $("yv-by-hand").addEventListener("change", function (event) {
    $("yv-order-text").readOnly = !event.target.checked;
    if (event.target.checked) $("yv-words-box").hidden = true;
    if (!event.target.checked) composeItems();
  });
  if (orders) buildChoices();
  $("yv-copy").addEventListener("click", copy("yv-sealed-text"));
})();
