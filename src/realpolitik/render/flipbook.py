"""A whole game as one HTML page: every phase's map with its orders and results, one at a
time, with buttons, a phase list and the arrow keys to turn the pages. Self-contained
(no script or style from elsewhere), so it can be mailed or archived."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from realpolitik.render.frames import Frame
from realpolitik.render.legend import phase_name
from realpolitik.render.svg import render
from realpolitik.render.svgutil import esc
from realpolitik.render.words import Words
from realpolitik.vocab import Province

_STYLE = """
body{margin:0;background:#e9e3d3;font-family:DejaVu Sans,Verdana,Arial,sans-serif;color:#3a2f1d}
header{display:flex;gap:.6em;align-items:center;padding:.5em 1em;background:#f6f1e3;
border-bottom:2px solid #7a6a52;position:sticky;top:0}
header h1{font-size:1.1em;margin:0 1em 0 0}
button,select{font:inherit;padding:.2em .7em}
.frame{display:none}.frame.shown{display:block}
.frame svg{display:block;margin:0 auto;width:100%;height:auto;max-height:calc(100vh - 3.2em)}
#count{color:#7a6a52}
"""

_SCRIPT = """
const frames=[...document.querySelectorAll('.frame')];
const pick=document.getElementById('pick');const count=document.getElementById('count');
let at=0;
function show(k){at=Math.max(0,Math.min(frames.length-1,k));
frames.forEach((f,i)=>f.classList.toggle('shown',i===at));pick.value=at;
count.textContent=(at+1)+' / '+frames.length;
history.replaceState(null,'','#'+frames[at].id);}
document.getElementById('prev').onclick=()=>show(at-1);
document.getElementById('next').onclick=()=>show(at+1);
pick.onchange=()=>show(+pick.value);
document.addEventListener('keydown',e=>{if(e.key==='ArrowLeft')show(at-1);
if(e.key==='ArrowRight')show(at+1);});
const start=frames.findIndex(f=>'#'+f.id===location.hash);show(start<0?0:start);
"""


def flipbook_html(
    frames: Sequence[Frame],
    *,
    title: str = "Diplomacy",
    labels: str = "short",
    names: Mapping[Province, str] | None = None,
    language: str = "en",
    edition: str | None = None,
) -> str:
    """The HTML page of ``frames`` (see :mod:`realpolitik.render.frames`)."""
    if not frames:
        raise ValueError("a flip-book needs at least one frame")
    options = []
    pages = []
    words = Words(language, edition=edition)
    for k, frame in enumerate(frames):
        name = phase_name(frame.phase, words)
        if frame.resolution is None:
            name += f" ({words.legend('now')})"
        options.append(f'<option value="{k}">{esc(name)}</option>')
        svg = render(
            frame.position,
            game_map=frame.game_map,
            orders=frame.orders,
            results=frame.resolution,
            phase=frame.phase,
            labels=labels,
            names=names,
            language=language,
            edition=edition,
            id_prefix=f"p{k}-",
            unplayed=frame.unplayed,
            unread=frame.unread,
            alliances=frame.alliances,
        )
        pages.append(
            f'<section class="frame" id="{frame.phase}" aria-label="{esc(name)}">{svg}</section>'
        )
    return (
        "\n".join(
            [
                "<!DOCTYPE html>",
                f'<html lang="{esc(language)}"><head><meta charset="utf-8">',
                '<meta name="viewport" content="width=device-width, initial-scale=1">',
                f"<title>{esc(title)}</title><style>{_STYLE}</style></head><body>",
                f"<header><h1>{esc(title)}</h1>",
                f'<button id="prev" title="{esc(words.legend("previous"))} (←)">◀</button>',
                f'<select id="pick">{"".join(options)}</select>',
                f'<button id="next" title="{esc(words.legend("next"))} (→)">▶</button>',
                '<span id="count"></span></header>',
                *pages,
                f"<script>{_SCRIPT}</script>",
                "</body></html>",
            ]
        )
        + "\n"
    )
