"""claimcheck._html: the selected elements' spans in the source, as the standard library's parser reads it."""

from __future__ import annotations

from claimcheck._html import elements


def test_each_selected_element_has_its_source_span_parent_and_text():
    page = "<p>a<br><div>x</span><b>&lt;b</b></div><ul><li><b>c<!-- n --></b></ul><b>open"
    found = elements(page, lambda tag, attrs: tag == "b")
    assert [page[b.start:b.end] for b in found] == ["<b>&lt;b</b>", "<b>c<!-- n --></b>", "<b>open"]
    assert [page[b.inner_start:b.inner_end] for b in found] == ["&lt;b", "c<!-- n -->", "open"]
    assert [("".join(b.text), b.parent, b.has_markup) for b in found] == [
        ("<b", "div", False), ("c", "li", True), ("open", "p", False)]
    assert found[-1].inner_end == found[-1].end == len(page)


def test_an_end_tag_closes_the_elements_left_open_inside_it():
    page = '<div id="d"><p>one<p>two</div>'
    (div,) = elements(page, lambda tag, attrs: ("id", "d") in attrs)
    assert (div.end, div.has_markup) == (len(page), True)
