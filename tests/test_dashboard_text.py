"""Text from hand files and the notes reaches the dashboard's Markdown through one helper,
`render.literal`: whatever it holds, Markdown reads it back letter for letter (the browser
test, tests/test_browser.py::test_text_from_hand_files_is_shown_as_written, holds every page)."""

from __future__ import annotations

from html import unescape

from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from studdraw.dashboard.render import literal

COMMONMARK = MarkdownIt("commonmark")
TEXTS = st.text(st.characters(min_codepoint=32, max_codepoint=126) | st.sampled_from("é€♠\u00a0"))


@given(TEXTS)
def test_markdown_reads_literal_text_back_as_written(text: str) -> None:
    shown = unescape(COMMONMARK.renderInline(literal(text))).replace("\u2060", "")
    assert shown == text


def test_payloads_make_no_markup() -> None:
    for text in ("![x](http://127.0.0.1:9/b.png)", '<img src="x">', "**b** _i_ :red[r]", "[l](u)"):
        html = COMMONMARK.renderInline(literal(text))
        assert "<" not in html.replace("&lt;", ""), html


def test_bare_addresses_are_no_links() -> None:
    """GitHub's Markdown links `http://`, `www.` and e-mail addresses found in the text after its
    escapes are read: an invisible word joiner stands in each."""
    assert literal("http://a www.b c@d") == "http\\:\u2060\\/\\/a www\u2060\\.b c\\@\u2060d"
