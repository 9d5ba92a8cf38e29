// The live page: the games being played, redrawn from live-data.js, which the arbiter rewrites at most
// once a second while an event runs. The data is a script setting one global value (a page opened
// from the disk may load a script but not fetch a file), so it is loaded again, as a new script
// element, every second. Names and engine text are shown with textContent, never as markup.
// While the event runs the data is rewritten at least every couple of seconds and says how long to
// wait for the next (stale_after); when no new data comes for that long (a run killed together with
// its publisher writes no more), the page says so rather than show the last games as being played.
(function () {
  "use strict";

  var list = document.getElementById("live-games");
  var template = document.getElementById("live-game");
  var state = document.getElementById("live-state");
  if (!list || !template) {
    return;
  }
  var shown = {};

  function clock(seconds) {
    if (seconds === null || seconds === undefined) {
      return "";
    }
    var whole = Math.max(0, seconds);
    var minutes = Math.floor(whole / 60);
    var rest = whole - minutes * 60;
    return minutes + ":" + (rest < 10 ? "0" : "") + rest.toFixed(1);
  }

  function score(value) {
    if (value === null || value === undefined) {
      return "";
    }
    return (value > 0 ? "+" : "") + value;
  }

  function card(game) {
    var element = shown[game.key];
    if (!element) {
      element = template.content.firstElementChild.cloneNode(true);
      element.setAttribute("data-game", game.key);
      list.appendChild(element);
      shown[game.key] = element;
    }
    return element;
  }

  function draw(game) {
    var element = card(game);
    game.players.forEach(function (player, index) {
      var name = element.querySelector("[data-player='" + index + "']");
      name.textContent = player.name;
      name.className = "player " + player.side;
      var row = element.querySelector("[data-clock='" + index + "']");
      row.cells[0].textContent = player.name + " (" + player.side + ")";
      row.cells[1].textContent = clock(player.clock);
    });
    element.querySelector(".live-key").textContent = "game " + game.key + " · " + game.time_control;
    var squares = element.querySelectorAll("svg.board g.sq");
    squares.forEach(function (square, index) {
      square.setAttribute("data-piece", game.board.charAt(index) || "e");
      var number = index + 1;
      square.classList.toggle("from", !!game.step && game.step[0] === number);
      square.classList.toggle("to", !!game.step && game.step[1] === number);
    });
    element.querySelector(".live-move").textContent =
      game.ply === 0 ? "Start position" : "Ply " + game.ply + ": " + game.last + " (" + game.side + ")";
    var info = game.info;
    var parts = [];
    if (info) {
      if (info.depth !== null) { parts.push("depth " + info.depth); }
      if (info.score !== null) { parts.push("score " + score(info.score)); }
      if (info.nodes !== null) { parts.push("nodes " + info.nodes); }
      if (info.pv) { parts.push("pv " + info.pv); }
    }
    element.querySelector(".live-info").textContent = parts.join(" · ");
  }

  // The data's time, and when this page first saw it (by the page's own clock, which may differ
  // from the writer's): the data is stale once it has not changed for stale_after seconds.
  var seen = null;

  function pad(number) {
    return (number < 10 ? "0" : "") + number;
  }

  function moment(date) {
    var time = pad(date.getHours()) + ":" + pad(date.getMinutes());
    if (date.toDateString() === new Date().toDateString()) {
      return time;
    }
    return date.getFullYear() + "-" + pad(date.getMonth() + 1) + "-" + pad(date.getDate()) + " " + time;
  }

  // When the data stopped coming (a Date), or null while it comes or when no more is expected.
  function staleSince(data) {
    if (typeof data.stale_after !== "number" || typeof data.updated !== "number") {
      return null;
    }
    var now = Date.now();
    if (!seen || seen.updated !== data.updated) {
      seen = { updated: data.updated, at: now, first: !seen };
    }
    var quiet = now - seen.at;
    if (seen.first) {
      // Until the data changes in front of it, the page goes by the data's own time too, so that
      // data that stopped long ago is called stale at once, not after stale_after seconds.
      quiet = Math.max(quiet, now - data.updated * 1000);
    }
    return quiet > data.stale_after * 1000 ? new Date(data.updated * 1000) : null;
  }

  function render() {
    var data = window.arbiterLive;
    if (!data) {
      return;
    }
    var stale = staleSince(data);
    list.classList.toggle("stale", stale !== null);
    var running = {};
    data.games.forEach(function (game) {
      running[game.key] = true;
      draw(game);
    });
    Object.keys(shown).forEach(function (key) {
      if (!running[key]) {
        list.removeChild(shown[key]);
        delete shown[key];
      }
    });
    if (state) {
      var said = stale
        ? "No update since " + moment(stale) + " (the run may have stopped)."
        : data.games.length
        ? data.games.length + (data.games.length === 1 ? " game" : " games") + " being played; updated every second."
        : "No game is being played now.";
      // A live region: a screen reader reads it out each time its text is set, so set only new words.
      if (state.textContent !== said) {
        state.textContent = said;
      }
    }
  }

  var pending = null;
  function reload() {
    if (pending) {
      return;
    }
    var script = document.createElement("script");
    script.src = "live-data.js?" + Date.now();
    pending = script;
    function done() {
      pending = null;
      script.remove();
      render();
    }
    script.onload = done;
    script.onerror = done;
    document.body.appendChild(script);
  }

  render();
  window.setInterval(reload, 1000);
})();
