"""claimcheck._code_breaks: inline code breaks only after a `/` or at a space; every other byte of the page stays."""

from __future__ import annotations

from claimcheck._code_breaks import break_code, breakable_code

_PATH = '<span class="code-word">lib/</span><wbr><span class="code-word">adder.py</span>'


def test_an_inline_code_span_breaks_after_its_slashes_and_keeps_each_piece_whole():
    # The rest of the page is kept byte for byte.
    page = ("<P CLASS=x>a<br>b<br/><img src='i.png'>\n<code>lib/adder.py</code> and <code>x y</code>,"
            " <code>lib/adder.py</code >.<p>&copy; c</P>")
    assert break_code(page) == page.replace("lib/adder.py", _PATH)
    assert breakable_code("src/b-c &amp; d") == (
        '<span class="code-word">src/</span><wbr><span class="code-word">b-c</span> <span class="code-word">&amp;</span> d')


def test_block_highlighted_and_marked_up_code_and_code_outside_the_markup_are_left_alone():
    page = ('<pre><code>lib/adder.py</code></pre><pre class="x"><span></span><code>lib/adder.py</code></pre>'
            '<code class="highlight">lib/adder.py</code><code>lib/<em>adder</em></code>'
            '<!-- <code>lib/adder.py</code> --><script>"<code>lib/adder.py</code>"</script>'
            '<p title="<code>lib/adder.py</code>">x</p><code>lib/adder.py')
    assert break_code(page) == page
