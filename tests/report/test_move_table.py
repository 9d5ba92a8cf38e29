"""A game page's move list is made in Python (a page has a hundred rows): it must read exactly as the
template's loop wrote it, escaping and all."""

from __future__ import annotations

from arbiter.report.move_table import MoveRow, move_table_rows
from arbiter.report.templating import environment, templates_dir

# The loop the game page's template had, kept here as the reference.
TEMPLATE_LOOP = (
    "      {% for row in moves %}\n"
    '      <tr id="ply-{{ row.ply }}" class="{{ row.side }}{% if row.book %} book{% endif %}">'
    '<td>{{ row.number_cell }}</td><td><a href="#ply-{{ row.ply }}">{{ row.text }}</a>'
    '{% if row.book %} <span class="tag" title="from the opening">book</span>{% endif %}'
    '{% if row.draw_offered %} <span class="tag" title="draw offered">=?</span>{% endif %}</td>'
    "<td>{{ row.elapsed | seconds }}</td><td>{{ row.clock | seconds }}</td>"
    '<td>{{ row.depth if row.depth is not none else "" }}</td><td>{{ row.score | score }}</td>'
    '<td>{{ row.info }}{% for w in row.warnings %}<span class="note">{{ w }}</span>{% endfor %}</td></tr>\n'
    "      {% endfor %}\n"
)


def row(ply: int, **changes: object) -> MoveRow:
    values: dict[str, object] = {
        "ply": ply,
        "number": f"{(ply + 1) // 2}.",
        "number_cell": f"{(ply + 1) // 2}." if ply % 2 else "",
        "side": "black" if ply % 2 else "white",
        "text": "11-15",
        "book": False,
        "elapsed": 0.25,
        "clock": 62.5,
        "depth": 9,
        "score": -0.5,
        "info": "nodes 1200 · pv 11-15 23-19",
        "warnings": (),
        "draw_offered": False,
    }
    values.update(changes)
    return MoveRow(**values)  # type: ignore[arg-type]


def lines(html: str) -> list[str]:
    return [line.strip() for line in html.splitlines() if line.strip()]


def test_the_move_list_reads_as_the_template_wrote_it_with_every_engine_text_escaped() -> None:
    rows = [
        row(1, book=True, elapsed=None, clock=None, depth=None, score=None, info=""),
        row(2, text="9x18", score=2.0, elapsed=75.3, clock=3725.0),
        row(3, info='nodes 5 · pv <b>"x"</b> & \x01', warnings=("Time: called on a <jump>", "it's")),
        row(4, draw_offered=True, depth=0, score=0.0, elapsed=12.0),
        row(5, text="\x1b[31m1-5", number_cell="3…"),
    ]
    template = environment(templates_dir()).from_string(TEMPLATE_LOOP)
    expected = template.render(moves=rows)
    made = move_table_rows(rows)
    assert lines(made) == lines(expected)
    assert "&lt;b&gt;&#34;x&#34;&lt;/b&gt; &amp; \\x01" in made
    assert "\\x1b[31m1-5" in made and "\x1b" not in made


def test_a_game_without_moves_has_no_rows() -> None:
    assert move_table_rows([]) == ""
