// The game viewer: steps through the boards the page carries (computed by the arbiter with the rules
// core) and keeps the board, the move list, the status line and the address (#ply-N) in step.
// It only reads data: names and engine text reach the page as escaped HTML or as JSON, never as code.
// Its buttons come hidden, as without a script they would do nothing (the page then shows the moves and
// the final position); it shows them.
(function () {
  "use strict";

  setUpCopy();
  var dataElement = document.getElementById("game-data");
  var board = document.querySelector("svg.board");
  if (!dataElement || !board) {
    return;
  }
  var data = JSON.parse(dataElement.textContent);
  var last = data.boards.length - 1;
  var squares = [];
  board.querySelectorAll("g.sq").forEach(function (group) {
    squares[Number(group.getAttribute("data-square"))] = group;
  });
  var rows = [];
  for (var index = 0; index <= last; index += 1) {
    rows.push(document.getElementById("ply-" + index));
  }
  var status = document.getElementById("status");
  var buttons = {};
  document.querySelectorAll("button[data-step]").forEach(function (button) {
    buttons[button.getAttribute("data-step")] = button;
  });
  // The ply the page drew (the final position): its move's marks are taken off as the viewer moves on.
  var ply = board.hasAttribute("data-ply") ? Number(board.getAttribute("data-ply")) : -1;

  function mark(square, name, on) {
    if (squares[square]) {
      squares[square].classList.toggle(name, on);
    }
  }

  function show(target, scroll) {
    var wanted = Math.max(0, Math.min(last, target));
    if (ply > 0) {
      mark(data.steps[ply - 1][0], "from", false);
      mark(data.steps[ply - 1][1], "to", false);
    }
    if (rows[ply]) {
      rows[ply].classList.remove("current");
      rows[ply].removeAttribute("aria-current");
    }
    ply = wanted;
    var letters = data.boards[ply];
    for (var square = 1; square <= letters.length; square += 1) {
      squares[square].setAttribute("data-piece", letters.charAt(square - 1));
    }
    // Mule checkers: Hub letters have no mule, so the data lists each board's mule squares.
    if (data.mules) {
      var mules = data.mules[ply];
      for (var each = 1; each <= letters.length; each += 1) {
        mark(each, "mule", mules.indexOf(each) >= 0);
      }
    }
    if (ply > 0) {
      mark(data.steps[ply - 1][0], "from", true);
      mark(data.steps[ply - 1][1], "to", true);
    }
    board.setAttribute("data-ply", String(ply));
    var row = rows[ply];
    if (row) {
      row.classList.add("current");
      row.setAttribute("aria-current", "step");
      if (scroll) {
        var panel = row.closest(".moves-panel");
        if (panel) {
          var top = row.offsetTop - panel.clientHeight / 2;
          panel.scrollTop = Math.max(0, top);
        }
      }
    }
    if (status) {
      status.textContent =
        ply === 0 ? "Start position" : "After " + data.labels[ply - 1] + " (ply " + ply + " of " + last + ")";
    }
    if (buttons.first) {
      buttons.first.disabled = ply === 0;
      buttons.prev.disabled = ply === 0;
      buttons.next.disabled = ply === last;
      buttons.last.disabled = ply === last;
    }
  }

  function go(target) {
    show(target, true);
    if (window.history && window.history.replaceState) {
      window.history.replaceState(null, "", "#ply-" + ply);
    }
  }

  function fromAddress() {
    var match = /^#ply-(\d+)$/.exec(window.location.hash);
    return match ? Number(match[1]) : null;
  }

  var steps = {
    first: function () { return 0; },
    prev: function () { return ply - 1; },
    next: function () { return ply + 1; },
    last: function () { return last; },
  };
  Object.keys(buttons).forEach(function (name) {
    buttons[name].addEventListener("click", function () {
      go(steps[name]());
    });
  });

  document.addEventListener("keydown", function (event) {
    var tag = event.target && event.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    var keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
    var name = keys[event.key];
    if (name) {
      event.preventDefault();
      go(steps[name]());
    }
  });

  // A move in the list is a link to its row (#ply-N), which works without scripts too; here it
  // moves the board instead of scrolling the page.
  document.querySelectorAll("#moves a[href^='#ply-']").forEach(function (link) {
    link.addEventListener("click", function (event) {
      event.preventDefault();
      go(Number(link.getAttribute("href").slice(5)));
    });
  });

  window.addEventListener("hashchange", function () {
    var target = fromAddress();
    if (target !== null && target !== ply) {
      show(target, false);
    }
  });

  var start = fromAddress();
  show(start === null ? 0 : start, start !== null);
  var controls = document.querySelector(".controls");
  if (controls) {
    controls.hidden = false;
  }

  function setUpCopy() {
    var copy = document.getElementById("copy-pdn");
    var text = document.getElementById("pdn-text");
    var copyState = document.getElementById("copy-state");
    if (!copy || !text) {
      return;
    }
    copy.hidden = false;
    copy.addEventListener("click", function () {
      function done(message) {
        if (copyState) {
          copyState.textContent = message;
        }
      }
      function selectText() {
        var range = document.createRange();
        range.selectNodeContents(text);
        var selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        try {
          done(document.execCommand("copy") ? "Copied." : "Selected: press Ctrl+C to copy.");
        } catch (error) {
          done("Selected: press Ctrl+C to copy.");
        }
      }
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text.textContent).then(function () { done("Copied."); }, selectText);
      } else {
        selectText();
      }
    });
  }
})();
