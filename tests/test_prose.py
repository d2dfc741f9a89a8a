"""dev.py prose: what counts as prose, how words and sentences are counted, and which targets a page misses."""

from __future__ import annotations

from dataclasses import replace

import pytest

from guidetools import prose


def page(body: str) -> str:
    return f"<html><body><nav><p>Navigation words do not count.</p></nav><article>{body}</article></body></html>"


@pytest.mark.parametrize("body, blocks", [
    ('<p class="framework" id="x.one">Call <code>Get("Meridian/content/a b.md")</code> once. '
     '<a class="claim-mark" href="#">✓ framework · <code>x.one</code></a></p>', [(3, "x.one", False)]),
    ("<ul><li>Outer item words<ul><li>inner one</li></ul></li></ul>", [(3, None, False), (2, None, False)]),
], ids=["an inline code span is one word and a claim label no prose", "a list item and its nested items count apart"])
def test_each_block_counts_its_own_words(body, blocks):
    assert [(block.words, block.claim, block.collapsed) for block in prose.blocks(page(body))] == blocks


def test_tables_code_blocks_and_collapsed_details_are_left_out_of_the_words():
    html = page("<p>Four words of prose.</p><table><tr><td><p>cell words</p></td></tr></table>"
                "<pre><code>print('code')</code></pre>"
                '<details class="note"><summary>Details</summary><p>Two hidden.</p></details>'
                '<details class="note" open="open"><summary>Open</summary><p>Three shown words.</p></details>')
    measured = prose.measure("P", html)
    assert (measured.words, measured.collapsed_words) == (4 + 3, 2)


@pytest.mark.parametrize(("text", "lengths"), [
    ("One two three. Four five.", [3, 2]),
    ("Use e.g. this form. Then stop.", [4, 2]),  # a lower-case word after a dot continues the sentence
    (f"Read {prose.CODE} first. {prose.CODE} answers text!", [3, 3]),
    ("No end mark at all", [5]),
])
def test_sentences_end_at_a_mark_before_a_capital_a_digit_or_a_code_span(text, lengths):
    assert [prose.words(sentence) for sentence in prose.sentences(text)] == lengths


def test_markdown_words_count_a_code_span_as_one_word_and_a_link_as_its_text():
    assert prose.markdown_words("Get `Meridian/content/a b.md` with [the path rule](../x.md#y), **always**.") == 7


def test_a_page_over_each_target_is_named_with_the_target_it_misses():
    # One sentence long enough to miss all four: mean, share over 40, paragraph and claim.
    sentence = " ".join(["word"] * (prose.PARAGRAPH_WORDS + 1)) + "."
    missed = prose.measure("P", page(f'<p class="model" id="x.long">{sentence}</p>')).misses()
    assert [miss.split(":")[1].split()[0] for miss in missed] == ["mean", f"{1:.1%}", "a", "claim"]
    assert prose.measure("P", page("<p>Short and plain.</p>")).misses() == []


def test_a_folder_that_is_not_a_build_of_the_guide_is_refused_by_name(tmp_path):
    with pytest.raises(FileNotFoundError, match="AgentDesign|AI/AgentDesign/index.html"):
        prose.measure_site(tmp_path)
    assert prose.main([str(tmp_path)]) == 2


def test_the_four_pages_together_keep_to_one_word_budget():
    # Two pages within every target of their own, over the budget together (no thousand paragraphs to parse).
    half = replace(prose.measure("P", page("<p>Short and plain.</p>")), words=prose.TOTAL_WORDS // 2 + 1)
    total = f"all four pages: {2 * half.words:,} prose words outside collapsed blocks"
    assert prose.misses([half, half]) == [f"{total} (target at most {prose.TOTAL_WORDS:,})"]
