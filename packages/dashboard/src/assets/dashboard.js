// The Patchbay dashboard page: one WebSocket to <base>/feed brings snapshots and calls. Everything is
// written with textContent, never as HTML, since names come from backends and clients.

(() => {
  const base = location.pathname.replace(/\/+$/, "");
  const maxRows = 500;
  const calls = [];
  let retryMs = 1000;
  const $ = (id) => document.getElementById(id);

  function cell(row, text, className) {
    const td = document.createElement("td");
    td.textContent = text === undefined || text === null ? "" : String(text);
    if (className) td.className = className;
    row.appendChild(td);
    return td;
  }

  function fill(tableId, items, render, empty) {
    const body = $(tableId).tBodies[0];
    const rows = items.map((item) => {
      const row = document.createElement("tr");
      render(row, item);
      return row;
    });
    if (rows.length === 0) {
      const row = document.createElement("tr");
      cell(row, empty, "muted").colSpan = $(tableId).tHead.rows[0].cells.length;
      rows.push(row);
    }
    body.replaceChildren(...rows);
  }

  const pad = (value, width = 2) => String(value).padStart(width, "0");

  // A time as the reader's local clock shows it, with the date and the zone's offset:
  // 2026-11-29 09:25:15 +01:00 (the title of each such cell gives it in UTC).
  function stamp(time) {
    const date = new Date(time);
    const offset = -date.getTimezoneOffset();
    const zone = `${offset < 0 ? "-" : "+"}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
    return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())} ${zone}`;
  }

  // A time cell: local time with its zone, and the same instant in UTC as its title.
  function timeCell(row, time) {
    cell(row, stamp(time), "num").title = new Date(time).toISOString();
  }

  // A duration cell (age, idle) whose title says since when.
  function sinceCell(row, ms, at) {
    cell(row, age(ms), "num").title = `since ${stamp(at)}`;
  }

  function age(ms) {
    const seconds = Math.floor(ms / 1000);
    if (seconds < 60) return `${seconds} s`;
    if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
    return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
  }

  // Protocol and transport failures (JSON-RPC errors, timeouts) apart from cancellations and
  // from tool results flagged isError, which are the tool's answer, not a failure to get one.
  function renderRates(rates) {
    $("calls-rate").textContent = String(rates.callsPerMinute);
    $("errors-rate").textContent = String(rates.errorsPerMinute);
    $("error-ratio").textContent = ratio(rates.errorsPerMinute, rates.callsPerMinute);
    $("tool-errors-rate").textContent = String(rates.toolErrorsPerMinute ?? 0);
    $("cancelled-rate").textContent = String(rates.cancelledPerMinute ?? 0);
  }

  function ratio(errors, calls) {
    return calls === 0 ? "–" : `${((100 * errors) / calls).toFixed(1)} %`;
  }

  // The replicas panel: absent data means a single process, said in words.
  function renderCluster(cluster) {
    document.body.classList.toggle("single", cluster === null);
    const where = cluster === null ? "" : ` on ${cluster.replicaId}`;
    $("sessions-where").textContent = where;
    $("feed-where").textContent = where;
    $("cluster-details").hidden = cluster === null;
    if (cluster === null) {
      $("cluster-note").textContent = "Single process: no cluster.";
      return;
    }
    $("cluster-note").textContent =
      `${cluster.live} of ${cluster.replicas.length} replicas live; this page is served by ${cluster.replicaId}.`;
    fill(
      "replicas",
      cluster.replicas,
      (row, replica) => {
        if (replica.self) {
          row.className = "self";
          row.setAttribute("aria-current", "true");
        }
        cell(row, replica.self ? `${replica.replicaId} (this page)` : replica.replicaId, "mono");
        cell(row, replica.state, `state-${replica.state}`);
        timeCell(row, replica.startedAt);
        cell(row, `${age(replica.lastBeatAgeMs)} ago`, "num");
        const counts = replica.counts;
        cell(row, counts ? counts.sessions : "–", "num");
        cell(row, counts ? counts.callsInFlight : "–", "num");
        cell(row, counts ? counts.callsServed : "–", "num");
        cell(row, counts ? counts.callsPerMinute : "–", "num");
        cell(row, counts ? ratio(counts.errorsPerMinute, counts.callsPerMinute) : "–", "num");
      },
      "No replicas seen yet",
    );
    renderLostReplicas(cluster.lostReplicas ?? []);
    renderClusterSessions(cluster);
  }

  // The replicas this one found gone, and the calls it answered for them.
  function renderLostReplicas(lost) {
    const list = $("lost-replicas");
    list.hidden = lost.length === 0;
    list.replaceChildren(
      ...lost.map((replica) => {
        const item = document.createElement("li");
        item.textContent =
          `${replica.replicaId} lost at ${stamp(replica.lostAt)}: ${replica.failedOver} call(s) failed over here (-32017 on their streams)` +
          (replica.unanswerable > 0 ? `, ${replica.unanswerable} with no stream to answer on` : "");
        return item;
      }),
    );
  }

  function renderClusterSessions(cluster) {
    $("cluster-sessions-note").textContent =
      cluster.sessions === null
        ? "Not available: the shared store cannot be reached."
        : `Streamable HTTP sessions of every replica, most recently active first${cluster.sessionsTruncated ? " (the listing was cut at its limit)" : ""}.`;
    fill(
      "cluster-sessions",
      cluster.sessions ?? [],
      (row, session) => {
        cell(row, session.client ?? "(unnamed)");
        cell(row, session.profile ?? "(all backends)");
        cell(row, session.token === "" ? "–" : session.token);
        cell(row, session.protocolVersion, "mono");
        cell(row, age(session.idleMs), "num");
      },
      "No shared sessions",
    );
  }

  function renderSnapshot(snapshot) {
    // Without auth there is no login to end.
    const logout = $("logout");
    if (logout) logout.hidden = snapshot.auth === false;
    const at = Date.parse(snapshot.generatedAt);
    $("server").textContent = `${snapshot.server.name} ${snapshot.server.version}`;
    const up = snapshot.backends.filter((backend) => backend.status === "running").length;
    $("backends-up").textContent = `${up} / ${snapshot.backends.length}`;
    $("session-count").textContent = String(snapshot.sessions.length);
    $("tool-count").textContent = String(snapshot.tools.length);
    renderRates(snapshot.rates);
    renderCluster(snapshot.cluster ?? null);
    fill(
      "backends",
      snapshot.backends,
      (row, backend) => {
        // A backend that is not serving now (restarting, crashed, failed) stands out.
        if (!["running", "idle", "starting", "stopped"].includes(backend.status))
          row.className = "attention";
        cell(row, backend.name);
        cell(row, backend.status, `state-${backend.status}`);
        cell(row, backend.restarts, backend.restarts > 0 ? "num restarted" : "num");
        cell(row, backend.protocolVersion ?? "–", "mono");
        cell(row, backend.toolCount, "num");
        cell(row, backend.resourceCount, "num");
        cell(row, backend.promptCount, "num");
        cell(row, backend.lastError ?? "–");
      },
      "No backends",
    );
    fill(
      "sessions",
      snapshot.sessions,
      (row, session) => {
        cell(row, session.client ?? "(not initialized)");
        cell(row, session.profile ?? "(all backends)");
        cell(row, session.token ?? "–");
        sinceCell(row, session.ageMs, at - session.ageMs);
        sinceCell(row, session.idleMs, at - session.idleMs);
        cell(row, session.replica ?? "", "replica-col mono");
      },
      "No client sessions",
    );
    fill(
      "tools",
      snapshot.tools,
      (row, tool) => {
        cell(row, tool.name, "mono");
        if (tool.builtIn) cell(row, "built-in", "muted");
        else cell(row, tool.backend);
      },
      "No tools",
    );
    renderWithheld(snapshot.withheld ?? []);
    renderPrincipalCredentials(snapshot.principalCredentials ?? []);
  }

  // Per-principal backends: which principals have their values stored (states only, never values).
  const stateLabels = { stored: "stored", partial: "some slots missing", missing: "none stored" };
  const setByLabels = {
    operator: "operator",
    principal: "each user (link)",
    oauth: "each user (OAuth)",
  };
  function renderPrincipalCredentials(backends) {
    $("principal-credentials-note").textContent =
      backends.length === 0 ? "No per-principal backends." : "";
    const rows = backends.flatMap((backend) =>
      backend.principals.length === 0
        ? [{ backend, principal: "(nobody known yet)", state: "missing" }]
        : backend.principals.map((entry) => ({ backend, ...entry })),
    );
    fill(
      "principal-credentials-table",
      rows,
      (row, entry) => {
        cell(row, entry.backend.backend);
        cell(row, setByLabels[entry.backend.setBy] ?? entry.backend.setBy);
        cell(row, entry.principal);
        cell(row, stateLabels[entry.state] ?? entry.state, `credential-${entry.state}`);
        const action = cell(row, "");
        // The login's own principal may connect where each user does; never for anyone else.
        const connectable = entry.backend.setBy !== "operator" && entry.state !== "stored";
        if (connectable && entry.principal === principal && principal !== "") {
          action.appendChild(connectButton(entry.backend.backend));
        }
      },
      "No per-principal backends",
    );
  }

  // Whose login this is (the token's name): its own rows offer a link to connect.
  const principal = document.body.dataset.principal ?? "";

  function connectButton(backend) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Connect";
    button.setAttribute("aria-label", `Connect to ${backend}`);
    button.addEventListener("click", async () => {
      button.disabled = true;
      const note = $("principal-credentials-note");
      try {
        const response = await fetch(`${base}/api/connect`, {
          method: "POST",
          credentials: "same-origin",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ backend }),
        });
        const body = await response.json().catch(() => ({}));
        if (response.ok) {
          location.assign(body.url);
          return;
        }
        note.textContent = `No link: ${body.error ?? `HTTP ${response.status}`}`;
      } catch {
        note.textContent = "No link: the dashboard cannot be reached.";
      }
      button.disabled = false;
    });
    return button;
  }

  // Only an operator's login gets the buttons; the approval endpoint checks again.
  const operator = document.body.dataset.operator === "true";

  async function approve(selector, button) {
    button.disabled = true;
    const result = $("pins-result");
    try {
      const response = await fetch(`${base}/api/pins/approve`, {
        method: "POST",
        credentials: "same-origin",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(selector),
      });
      const body = await response.json().catch(() => ({}));
      result.textContent = response.ok
        ? `Approved: ${body.approved.join(", ")}`
        : `Not approved: ${body.error ?? `HTTP ${response.status}`}`;
    } catch {
      result.textContent = "Not approved: the dashboard cannot be reached.";
    }
    button.disabled = false;
  }

  function approveButton(label, selector, name) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = label;
    button.setAttribute("aria-label", name);
    button.addEventListener("click", () => approve(selector, button));
    return button;
  }

  // Withheld definitions (changed since pinned, or never pinned), their diffs as text.
  function renderWithheld(withheld) {
    $("pins-note").textContent =
      withheld.length === 0
        ? "Nothing withheld: every tool, prompt and resource template served is pinned."
        : operator
          ? "Approving a definition pins it, and clients are served it."
          : "An operator's login (a token with operator: true) can approve them.";
    fill(
      "withheld",
      withheld,
      (row, item) => {
        cell(row, item.backend);
        cell(row, item.kind);
        cell(row, item.name, "mono");
        cell(row, item.status, `pin-${item.status}`);
        cell(row, item.changed_fields.length === 0 ? "–" : item.changed_fields.join(", "));
        const diff = document.createElement("pre");
        diff.textContent = item.diff === "" ? "(not pinned before)" : item.diff;
        cell(row, "").appendChild(diff);
        if (operator) {
          cell(row, "", "operator-only").appendChild(
            approveButton("Approve", { tool: item.name }, `Approve ${item.name}`),
          );
        }
      },
      "Nothing withheld",
    );
    const backends = [...new Set(withheld.map((item) => item.backend))];
    $("pins-backends").replaceChildren(
      ...(operator ? backends : []).map((backend) =>
        approveButton(
          `Approve all of ${backend}`,
          { backend, all: true },
          `Approve all of ${backend}`,
        ),
      ),
    );
  }

  function matches(call, filter) {
    if (filter === "") return true;
    return [
      call.client,
      call.method,
      call.tool,
      call.backend,
      call.outcome,
      call.code,
      call.traceId,
      call.replica,
    ].some((value) => value !== undefined && String(value).toLowerCase().includes(filter));
  }

  // The backend a call went to; a tool call no backend took is the router's own or unknown.
  function backendOf(call) {
    if (call.backend !== undefined) return [call.backend];
    if (call.method !== "tools/call") return [""];
    return call.builtIn ? ["built-in", "muted"] : ["unknown", "muted"];
  }

  function renderCalls() {
    const filter = $("feed-filter").value.trim().toLowerCase();
    const shown = calls
      .filter((call) => matches(call, filter))
      .slice(-maxRows)
      .reverse();
    fill(
      "calls",
      shown,
      (row, call) => {
        timeCell(row, call.time);
        cell(row, call.client ?? "–", "client");
        cell(row, call.method, "mono");
        cell(row, call.tool ?? "", "mono");
        cell(row, ...backendOf(call));
        cell(
          row,
          call.code === undefined ? call.outcome : `${call.outcome} ${call.code}`,
          `status-${call.outcome}`,
        );
        cell(row, `${call.durationMs} ms`, "num");
        cell(row, call.traceId, "mono");
        cell(row, call.replica ?? "", "replica-col mono");
      },
      filter === "" ? "No calls yet" : "No call matches the filter",
    );
  }

  function setConnection(text, state) {
    const status = $("connection");
    status.textContent = text;
    status.className = `connection ${state}`;
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}${base}/feed`);
    let opened = false;
    socket.addEventListener("open", () => {
      opened = true;
      retryMs = 1000;
      setConnection("Live", "live");
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "snapshot") renderSnapshot(message.snapshot);
      if (message.type === "calls") {
        calls.push(...message.calls);
        if (calls.length > maxRows) calls.splice(0, calls.length - maxRows);
        renderCalls();
        renderRates(message.rates);
      }
    });
    socket.addEventListener("close", async () => {
      setConnection("Disconnected: retrying…", "down");
      if (!opened) {
        // Refused: when the login expired, the page itself now shows the login form.
        const check = await fetch(`${base}/api/snapshot`, { credentials: "same-origin" }).catch(
          () => undefined,
        );
        if (check !== undefined && check.status === 401) {
          location.reload();
          return;
        }
      }
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 30000);
    });
  }

  $("feed-filter").addEventListener("input", renderCalls);
  renderCalls();
  connect();
})();
