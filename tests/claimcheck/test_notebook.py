"""claimcheck._notebook: a notebook cell whose input calls `plt.` is folded; every other byte of the page stays."""

from __future__ import annotations

from claimcheck._notebook import SUMMARY, fold_plotting_code

_OPEN = f'<details class="notebook-code"><summary>{SUMMARY}</summary>'


def _cell(code: str) -> str:
    return (f'<div class="jp-Cell-inputWrapper" tabindex="0"><div class="jp-InputArea"><pre>{code}</pre></div>'
            '<div>!--</div></div>')


def test_a_cell_that_plots_is_folded_and_one_that_computes_stays_open():
    plots, computes = _cell('<span class="n">plt</span><span class="o">.</span>show()'), _cell("total = 1")
    output = '<div class="jp-OutputArea"><img src="figure.png"></div>'
    page = f"<main>{computes}{plots}{output}</main>"
    assert fold_plotting_code(page) == f"<main>{computes}{_OPEN}{plots}</details>{output}</main>"


def test_plt_in_a_comment_an_attribute_or_another_word_does_not_fold():
    page = "".join(_cell(code) for code in ("<!-- plt.show() -->", '<b title="plt.x">x</b>', "implt.x", "plt"))
    assert fold_plotting_code(page) == page


def test_character_references_are_read_as_their_text_and_a_cell_never_closed_runs_to_the_end():
    page = '<div class="jp-Cell-inputWrapper"><div>plt&#46;plot(x)</div>'
    assert fold_plotting_code(page) == f"{_OPEN}{page}</details>"
